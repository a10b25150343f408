// A secret's ciphertext pasted under another key (the SSL key's `secure:` value copied to the
// certificate, the SSH key's to the SSL key): the stack file shows it without decrypting, so
// `npm run validate` refuses it before any preview. Only certificates may share a value (one CA for
// Kubernetes and OVN); preview compares the plain values too (./keyMaterial.ts).
import { CERTIFICATES } from "./keyMaterial";
import { SECRET_KEYS, type SecretKey, type StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

const isCertificate = (k: SecretKey) => (CERTIFICATES as readonly string[]).includes(k);

/**
 * Ciphertext as secrets providers write it: base64 (the service, KMS), or `v1:<nonce>:<ciphertext>`
 * (passphrase). Placeholders (`v1:REPLACE-WITH-…`, the program's `(secret)` marker) are no ciphertext.
 */
const CIPHERTEXT = /^(?:v1:)?[A-Za-z0-9+/]{8,}={0,2}(?::[A-Za-z0-9+/]{8,}={0,2})?$/;

/** Relation: no two secret settings, unless both are certificates, hold one ciphertext; reported at the later key, never quoting it. */
export function secretCopyProblems(cfg: StackConfigInput, add: Add): void {
    const cipher = (k: SecretKey): string | undefined => {
        const v = cfg[k];
        return v && typeof v === "object" && typeof v.secure === "string" && CIPHERTEXT.test(v.secure) ? v.secure : undefined;
    };
    const present = SECRET_KEYS.filter((k) => cipher(k) !== undefined);
    present.forEach((k, j) => {
        const same = present.slice(0, j).find((o) => cipher(o) === cipher(k) && !(isCertificate(o) && isCertificate(k)));
        if (same)
            add(
                k,
                `holds the same ciphertext as ${same}: one secret's value was pasted under another key; set ${k} to its own value (pulumi config set --secret)`,
            );
    });
}
