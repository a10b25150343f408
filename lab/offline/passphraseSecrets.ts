// Pulumi's passphrase secrets provider, so that generated stack files carry real Pulumi secrets
// that `pulumi up` with a local backend decrypts. The format (Pulumi's pkg/secrets/passphrase and
// sdk/go/common/resource/config/crypt.go):
//   key            = PBKDF2-HMAC-SHA256(passphrase, salt, 1,000,000 iterations, 32 bytes)
//   value          = "v1:" + base64(12-byte nonce) + ":" + base64(AES-256-GCM ciphertext || 16-byte tag)
//   encryptionsalt = "v1:" + base64(8-byte salt) + ":" + value of the string "pulumi"
// where the encrypted "pulumi" lets a wrong passphrase be told apart before anything is decrypted.
import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from "node:crypto";

const ITERATIONS = 1_000_000;
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const SALT_BYTES = 8;
const CHECK_TEXT = "pulumi";

export class IncorrectPassphraseError extends Error {
    constructor() {
        super("incorrect passphrase: set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to the stack's passphrase");
        this.name = "IncorrectPassphraseError";
    }
}

function decodeBase64(text: string, what: string): Buffer {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error(`bad ${what}: not base64`);
    return Buffer.from(text, "base64");
}

function encryptWithKey(key: Buffer, plaintext: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key, nonce);
    const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `v1:${nonce.toString("base64")}:${sealed.toString("base64")}`;
}

/** Throws IncorrectPassphraseError when the key does not authenticate the value. */
function decryptWithKey(key: Buffer, value: string): string {
    const parts = value.split(":");
    if (parts.length !== 3) throw new Error("bad secret value: expected v1:<nonce>:<ciphertext>");
    if (parts[0] !== "v1") throw new Error(`bad secret value: unknown version ${JSON.stringify(parts[0])}`);
    const nonce = decodeBase64(parts[1], "secret nonce");
    const sealed = decodeBase64(parts[2], "secret ciphertext");
    if (nonce.length !== NONCE_BYTES) throw new Error("bad secret value: nonce size is incorrect");
    if (sealed.length < TAG_BYTES) throw new Error("bad secret value: ciphertext too short");
    const decipher = createDecipheriv("aes-256-gcm", key, nonce);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
        return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
        throw new IncorrectPassphraseError();
    }
}

function deriveKey(passphrase: string, salt: Buffer): Buffer {
    return pbkdf2Sync(passphrase, salt, ITERATIONS, KEY_BYTES, "sha256");
}

/** Encrypts and decrypts the secure values of one stack file (one derived key, about 0.3 s to derive). */
export class PassphraseSecrets {
    private constructor(
        /** The stack file's top-level `encryptionsalt`. */
        readonly encryptionSalt: string,
        private readonly key: Buffer,
    ) {}

    /** A new salt for a new stack file. */
    static create(passphrase: string): PassphraseSecrets {
        const salt = randomBytes(SALT_BYTES);
        const key = deriveKey(passphrase, salt);
        return new PassphraseSecrets(`v1:${salt.toString("base64")}:${encryptWithKey(key, CHECK_TEXT)}`, key);
    }

    /** Opens an existing stack file's `encryptionsalt`; throws IncorrectPassphraseError for a wrong passphrase. */
    static open(passphrase: string, encryptionSalt: string): PassphraseSecrets {
        const first = encryptionSalt.indexOf(":");
        const second = encryptionSalt.indexOf(":", first + 1);
        if (encryptionSalt.slice(0, first) !== "v1" || second < 0) {
            throw new Error("bad encryptionsalt: expected v1:<salt>:v1:<nonce>:<ciphertext>");
        }
        const key = deriveKey(passphrase, decodeBase64(encryptionSalt.slice(first + 1, second), "encryptionsalt salt"));
        if (decryptWithKey(key, encryptionSalt.slice(second + 1)) !== CHECK_TEXT) throw new IncorrectPassphraseError();
        return new PassphraseSecrets(encryptionSalt, key);
    }

    /** A value for `{secure: …}` in the stack file. */
    encrypt(plaintext: string): string {
        return encryptWithKey(this.key, plaintext);
    }

    decrypt(secure: string): string {
        return decryptWithKey(this.key, secure);
    }
}
