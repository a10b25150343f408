// Real key material for every secret key, made once per process (ssh2 for the SSH key, openssl for
// the SSL chain), so validation parses what a real stack holds. Each value's second line is
// distinctive, so a test can search outputs for it.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { utils } from "ssh2";
import type { SecretTexts } from "@ovn-kubernetes-as-code/cluster/config";
import { makePki, type Pki } from "./pki";

let pki: Pki | undefined;
let ssh: string | undefined;

/** An SSL chain (CA and a certificate it signed), the same for the whole process. */
export function testPki(): Pki {
    return (pki ??= makePki("test"));
}

/** A kubeconfig whose current context's server is `server`. */
export function kubeconfigFor(server: string, token = randomBytes(16).toString("hex")): string {
    return [
        "apiVersion: v1",
        `# test kubeconfig ${randomBytes(8).toString("hex")}`,
        "kind: Config",
        "clusters:",
        "- name: test",
        "  cluster:",
        `    server: ${server}`,
        "contexts:",
        "- name: test",
        "  context: {cluster: test, user: admin}",
        "current-context: test",
        "users:",
        "- name: admin",
        "  user:",
        `    token: ${token}`,
        "",
    ].join("\n");
}

export const TEST_KUBE_SERVER = "https://api.test.example.com:6443";

/**
 * A new OpenSSH ed25519 private key. ssh2's generator writes about one key in 300 that neither its
 * own parser nor OpenSSH's ssh-keygen reads ("Malformed OpenSSH private key"): those are made again.
 */
export function sshPrivateKey(): string {
    for (;;) {
        const key = utils.generateKeyPairSync("ed25519").private;
        if (!(utils.parseKey(key) instanceof Error)) return key;
    }
}

/** Plain values for every secret key, each what its key is for. */
export function testSecretTexts(): Required<SecretTexts> {
    ssh ??= sshPrivateKey();
    const { key, cert, ca } = testPki();
    return {
        sshPrivateKey: ssh,
        k8sApiToken: `# test token\n${randomBytes(24).toString("hex")}`,
        k8sCaCertificate: ca,
        ovnSslPrivateKey: key,
        ovnSslCertificate: cert,
        ovnSslCaCertificate: ca,
        kubeconfig: kubeconfigFor(TEST_KUBE_SERVER),
    };
}

let other: Pki | undefined;
/** A second, unrelated SSL chain. */
export function otherPki(): Pki {
    return (other ??= makePki("other"));
}

/** One RSA key pair as PKCS#1 (which ssh2 and OpenSSL both read) and as PKCS#8. */
export function rsaKeyPair(): { pkcs1: string; pkcs8: string } {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    return {
        pkcs1: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
        pkcs8: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    };
}

/** The OpenSSH public key line of a private key. */
export function publicLine(privateKey: string): string {
    const k = utils.parseKey(privateKey);
    if (k instanceof Error || Array.isArray(k)) throw new Error("not one key");
    return `${k.type} ${k.getPublicSSH().toString("base64")}`;
}

/** An OpenSSH private key encrypted with a passphrase. */
export function encryptedSshKey(): string {
    for (;;) {
        const key = utils.generateKeyPairSync("ed25519", { passphrase: "pass", cipher: "aes256-ctr", rounds: 4 }).private;
        if (!(utils.parseKey(key, "pass") instanceof Error)) return key; // see sshPrivateKey
    }
}
