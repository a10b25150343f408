// The one quoting for values that reach a shell: remote commands (sshd runs every command through
// the user's POSIX login shell), host scripts' assignments, the local cluster's commands.

/**
 * One shell word for `value`, always single-quoted: inside '…' only the quote itself is special.
 * Always quoting keeps generated host scripts' text independent of the values' characters.
 */
export function shellQuote(value: string): string {
    // No shell variable or argument can hold NUL: refuse rather than silently truncate.
    if (value.includes("\0")) throw new Error("a shell value cannot contain a NUL character");
    return "'" + value.replace(/'/g, "'\\''") + "'";
}

/** A command line from a program and its arguments, every word quoted. */
export function shellCommand(words: readonly string[]): string {
    return words.map(shellQuote).join(" ");
}
