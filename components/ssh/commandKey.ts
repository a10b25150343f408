// The SSH private key as @pulumi/command's connection carries it. The connection is stored, as one
// secret, in every command's inputs and outputs, so its size counts once per command per host. An
// ed25519 key in OpenSSH's format (about 400 characters: the public key twice, check words, a
// comment, padding) is the same key as its 32-byte seed in PKCS#8 PEM (119 characters), which
// pulumi-command v1.2.1 reads as well (remote/connection.go: Go's ssh.ParsePrivateKey, whose
// "PRIVATE KEY" block is x509.ParsePKCS8PrivateKey, ed25519 included). Other key types and
// passphrase-protected keys are passed on as given.
//
// ssh2 reads OpenSSH's format but not PKCS#8, so a PKCS#8 ed25519 key goes back to OpenSSH's format
// before ssh2 sees it (hand-written: neither ssh2 nor node:crypto writes that format).
import { createPrivateKey } from "node:crypto";
import { utils } from "ssh2";

/** `key` in the shortest form @pulumi/command reads; the same key. */
export function commandPrivateKey(key: string): string {
    const parsed = utils.parseKey(key);
    if (parsed instanceof Error || Array.isArray(parsed) || parsed.type !== "ssh-ed25519" || !parsed.isPrivateKey()) return key;
    return parsed.getPrivatePEM();
}

const PKCS8 = /^\s*-----BEGIN PRIVATE KEY-----/;

/** `key` as ssh2 reads it: a PKCS#8 ed25519 key in OpenSSH's format, anything else as given. */
export function ssh2PrivateKey(key: string): string {
    if (!PKCS8.test(key)) return key;
    let jwk: { crv?: string; d?: string; x?: string };
    try {
        jwk = createPrivateKey(key).export({ format: "jwk" });
    } catch {
        return key; // ssh2 then names what it cannot read
    }
    if (jwk.crv !== "Ed25519" || !jwk.d || !jwk.x) return key;
    const seed = Buffer.from(jwk.d, "base64url");
    const pub = Buffer.from(jwk.x, "base64url");
    const u32 = (n: number) => {
        const b = Buffer.alloc(4);
        b.writeUInt32BE(n);
        return b;
    };
    const str = (b: Buffer | string) => {
        const v = Buffer.from(b);
        return Buffer.concat([u32(v.length), v]);
    };
    const publicBlob = Buffer.concat([str("ssh-ed25519"), str(pub)]);
    const check = u32(0x6f766e6b); // any value, the same twice: it only tells a wrong passphrase
    let secret = Buffer.concat([check, check, publicBlob, str(Buffer.concat([seed, pub])), str("")]);
    const pad = (8 - (secret.length % 8)) % 8;
    secret = Buffer.concat([secret, Buffer.from(Array.from({ length: pad }, (_, i) => i + 1))]);
    const body = Buffer.concat([Buffer.from("openssh-key-v1\0"), str("none"), str("none"), str(""), u32(1), str(publicBlob), str(secret)]);
    const lines = body.toString("base64").match(/.{1,70}/g)!;
    return ["-----BEGIN OPENSSH PRIVATE KEY-----", ...lines, "-----END OPENSSH PRIVATE KEY-----", ""].join("\n");
}
