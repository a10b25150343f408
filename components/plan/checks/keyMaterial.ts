// Key material is parsed, not pattern-matched: a truncated key, a private key where a certificate
// belongs, a host key copied between hosts, or one secret used for two purposes only fails once a
// connection is made, half-way through an `up`. Host keys are in the stack file; the secrets'
// values are checked where the program has them (never in a message), their presence elsewhere.
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from "node:crypto";
import { utils, type ParsedKey } from "ssh2";
import { parse } from "yaml";
import { isFingerprintPin, keyLineHint, parseHostKeyLine } from "../../ssh/hostKey";
import { SECRET_KEYS, type SecretKey, type StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

/** Plain-text values of the secrets, as the program receives them. */
export type SecretTexts = Partial<Record<SecretKey, string>>;

export const CERTIFICATES = ["k8sCaCertificate", "ovnSslCertificate", "ovnSslCaCertificate"] as const;
const CA_CERTIFICATES: ReadonlySet<SecretKey> = new Set(["k8sCaCertificate", "ovnSslCaCertificate"]);
const PEM_PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----/;

/** ssh2's reading of one key (it parses OpenSSH and PEM keys); an Error when it cannot. */
function sshKey(text: string): ParsedKey | Error {
    const k = utils.parseKey(text);
    return Array.isArray(k) ? k[0] : k;
}

/** A public key's SPKI bytes as text, to compare keys whatever format they came in. */
const spki = (k: KeyObject): string => k.export({ type: "spki", format: "der" }).toString("base64");

/** Relation: every pinned host key parses as a public SSH key, and no two nodes pin one key. */
export function hostKeyProblems(cfg: StackConfigInput, add: Add): void {
    const seen = new Map<string, number>();
    cfg.nodes.forEach((n, i) => {
        const path = `nodes[${i}].hostKey`;
        if (n.hostKey === undefined) return;
        if (isFingerprintPin(n.hostKey))
            return add(path, `a fingerprint cannot be verified by @pulumi/command, which needs the key itself: ${keyLineHint(n.address)}`);
        try {
            parseHostKeyLine(n.hostKey);
        } catch (e) {
            return add(path, (e as Error).message);
        }
        const key = sshKey(n.hostKey);
        if (key instanceof Error)
            return add(path, `is not an SSH public key (${key.message}); copy the whole line again: ${keyLineHint(n.address)}`);
        if (key.isPrivateKey()) return add(path, `is a private key; pin the host's public key: ${keyLineHint(n.address)}`);
        const blob = key.getPublicSSH().toString("base64");
        const other = seen.get(blob);
        if (other !== undefined)
            add(
                path,
                `is also the host key of nodes[${other}]: a key copied between hosts (a cloned image) lets one pose as the other; give this host its own key (ssh-keygen -A) and pin it`,
            );
        else seen.set(blob, i);
    });
}

/** The server URL of a kubeconfig's current context; undefined when the text is no kubeconfig. */
export function kubeconfigServer(text: string): string | undefined {
    let doc: any;
    try {
        doc = parse(text);
    } catch {
        return undefined;
    }
    if (!doc || typeof doc !== "object" || !Array.isArray(doc.clusters)) return undefined;
    // As kubectl: the current context must exist, and it names the cluster.
    const context = Array.isArray(doc.contexts) ? doc.contexts.find((c: any) => c?.name === doc["current-context"]) : undefined;
    const clusterName = context?.context?.cluster;
    const server = doc.clusters.find((c: any) => c?.name === clusterName)?.cluster?.server;
    return typeof server === "string" && /^https?:\/\//.test(server) ? server : undefined;
}

/**
 * Relations over the secrets' values: each parses as what its key is for, the SSL key belongs to
 * the SSL certificate which the CA signed, and no value (or key pair) serves two purposes.
 */
export function secretMaterialProblems(cfg: StackConfigInput, texts: SecretTexts, add: Add): void {
    const publicKeys = new Map<SecretKey, string>();
    const ssh = texts.sshPrivateKey;
    if (ssh !== undefined) {
        const key = sshKey(ssh);
        if (key instanceof Error)
            add(
                "sshPrivateKey",
                /passphrase/i.test(key.message)
                    ? "is encrypted with a passphrase, which nothing can give at run time; store the key without one (ssh-keygen -p -N '')"
                    : `is not an SSH private key (${key.message})`,
            );
        else if (!key.isPrivateKey()) add("sshPrivateKey", "is a public key; give the private key the hosts' authorized_keys admit");
        else {
            publicKeys.set("sshPrivateKey", spki(createPublicKey(key.getPublicPEM())));
            const own = key.getPublicSSH().toString("base64");
            cfg.nodes.forEach((n, i) => {
                const pinned = n.hostKey && !isFingerprintPin(n.hostKey) ? sshKey(n.hostKey) : undefined;
                if (pinned && !(pinned instanceof Error) && pinned.getPublicSSH().toString("base64") === own)
                    add(
                        `nodes[${i}].hostKey`,
                        "is the public half of sshPrivateKey, the program's own login key, not the host's; pin the host's key from ssh-keyscan",
                    );
            });
        }
    }
    const certs = new Map<SecretKey, X509Certificate>();
    for (const k of CERTIFICATES) {
        const text = texts[k];
        if (text === undefined) continue;
        if (PEM_PRIVATE_KEY.test(text)) {
            add(
                k,
                "holds a private key where a certificate belongs; give the certificate (-----BEGIN CERTIFICATE-----) and keep the key on its host",
            );
            continue;
        }
        try {
            const cert = new X509Certificate(text);
            if (CA_CERTIFICATES.has(k) && !cert.ca)
                add(k, `is not a CA certificate (basicConstraints CA:FALSE): ${cert.subject.replace(/\n/g, ", ")} cannot vouch for others`);
            else if (Date.parse(cert.validTo) < Date.now()) add(k, `expired on ${cert.validTo}`);
            else certs.set(k, cert);
        } catch {
            add(k, "is not a PEM X.509 certificate (-----BEGIN CERTIFICATE-----)");
        }
    }
    const sslKey = texts.ovnSslPrivateKey;
    if (sslKey !== undefined) {
        try {
            const key = createPrivateKey(sslKey);
            publicKeys.set("ovnSslPrivateKey", spki(createPublicKey(key)));
            const cert = certs.get("ovnSslCertificate");
            if (cert && !cert.checkPrivateKey(key))
                add(
                    "ovnSslPrivateKey",
                    "does not belong to ovnSslCertificate: OVN's SSL handshake would fail; give the key the certificate was issued for",
                );
        } catch {
            add(
                "ovnSslPrivateKey",
                PEM_CERTIFICATE.test(sslKey)
                    ? "holds a certificate where the private key belongs"
                    : "is not a PEM private key (-----BEGIN PRIVATE KEY-----)",
            );
        }
    }
    const [cert, ca] = [certs.get("ovnSslCertificate"), certs.get("ovnSslCaCertificate")];
    if (cert && ca && !cert.verify(ca.publicKey))
        add(
            "ovnSslCertificate",
            `is not signed by ovnSslCaCertificate (issuer ${cert.issuer.replace(/\n/g, ", ")}): every peer would refuse it`,
        );
    if (texts.k8sApiToken !== undefined && /-----BEGIN /.test(texts.k8sApiToken))
        add("k8sApiToken", "holds PEM key material, not a bearer token");
    if (texts.kubeconfig !== undefined && kubeconfigServer(texts.kubeconfig) === undefined)
        add(
            "kubeconfig",
            "is not a kubeconfig whose current context names a cluster with an http(s) server (`kubectl config view --minify --raw`)",
        );
    reusedSecrets(texts, publicKeys, add);
}

/**
 * Relation: one private value, or one key pair, serves one purpose; reported at the later key.
 * Certificates are public and may be shared (one CA for Kubernetes and OVN).
 */
function reusedSecrets(texts: SecretTexts, publicKeys: Map<SecretKey, string>, add: Add): void {
    const present = SECRET_KEYS.filter((k) => texts[k] !== undefined && !(CERTIFICATES as readonly string[]).includes(k));
    present.forEach((k, j) => {
        const same = present.slice(0, j).find((o) => texts[o]!.trim() === texts[k]!.trim());
        const pair = publicKeys.has(k) ? present.slice(0, j).find((o) => publicKeys.get(o) === publicKeys.get(k)) : undefined;
        if (same)
            add(k, `is the same value as ${same}: one secret would serve two purposes, so leaking either leaks both; give each its own`);
        else if (pair)
            add(k, `is the key pair of ${pair}: one key would serve two purposes, so leaking either leaks both; give each its own`);
    });
}
