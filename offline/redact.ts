// Hides secret text in messages before they are printed or returned: a failing host script can
// echo what it read on stdin, and a program error can quote a value. Every secret the run has seen
// (decrypted config, secret inputs) is registered here; so is each line of a multi-line secret,
// since an output tail may hold only part of a key.
const MIN_LENGTH = 6; // shorter fragments would mask ordinary words

export class Redactor {
    private readonly secrets = new Set<string>();

    add(values: Iterable<string>): void {
        for (const value of values) {
            const candidates = [value, ...value.split(/\r?\n/)].map((s) => s.trim());
            for (const s of candidates) if (s.length >= MIN_LENGTH) this.secrets.add(s);
        }
    }

    text(message: string): string {
        // Longest first, so a whole key is replaced before its lines are looked for.
        let out = message;
        for (const s of [...this.secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join("[secret]");
        return out;
    }
}
