// Hides secret text in messages before they are printed or returned: a failing host script can
// echo what it read on stdin, and a program error can quote a value. Every secret the run has seen
// (decrypted config, secret inputs) is registered here; so is each line of a multi-line secret,
// since an output tail may hold only part of a key. A value that is also known in the clear (a
// host address inside a connection that is secret as a whole, and plain in the stack config) is
// public, and stays readable in messages.
const MIN_LENGTH = 6; // shorter fragments would mask ordinary words

export class Redactor {
    private readonly secrets = new Set<string>();
    private readonly known = new Set<string>();

    add(values: Iterable<string>): void {
        for (const value of values) {
            const candidates = [value, ...value.split(/\r?\n/)].map((s) => s.trim());
            for (const s of candidates) if (s.length >= MIN_LENGTH) this.secrets.add(s);
        }
    }

    /** Values seen outside any secret. */
    addPublic(values: Iterable<string>): void {
        for (const value of values) this.known.add(value.trim());
    }

    text(message: string): string {
        // Longest first, so a whole key is replaced before its lines are looked for.
        let out = message;
        const hidden = [...this.secrets].filter((s) => !this.known.has(s)).sort((a, b) => b.length - a.length);
        for (const s of hidden) out = out.split(s).join("[secret]");
        return out;
    }
}
