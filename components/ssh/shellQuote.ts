// Quoting for values that reach the remote shell (sshd runs every command through the user's
// POSIX login shell).

/** One shell word for `value`: bare when only safe characters, else single-quoted. */
export function shellQuote(value: string): string {
    if (value.includes("\0")) throw new Error("a shell argument cannot contain a NUL character");
    if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
    return "'" + value.replace(/'/g, "'\\''") + "'";
}

/** A command line from a program and its arguments, every word quoted. */
export function shellCommand(words: readonly string[]): string {
    return words.map(shellQuote).join(" ");
}
