// The control plane's PKI, made with openssl (Debian ships it) and node's key generation: a
// cluster CA, certificates it signs (the API server's serving certificate, client certificates
// whose CN is the Kubernetes user and whose O values are its groups, as the API server's x509
// authenticator reads them) and the service-account signing key pair. Keys are EC P-256: quick
// to make, accepted by every Kubernetes component. Private keys are written 0600 and only their
// paths reach openssl's argv. Files are issued once and reused, so repeated calls are cheap.
import { generateKeyPairSync } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { isCanonicalIpv6 } from "../ipFamily";
import { check } from "../run";
import { PATTERNS } from "@ovn-kubernetes-as-code/cluster/values";

export interface KeyPair {
    keyPath: string;
    /** Public key (PEM, SubjectPublicKeyInfo). */
    publicPath: string;
}

export interface IssuedCert {
    certPath: string;
    keyPath: string;
    certPem: string;
    keyPem: string;
}

export interface CertRequest {
    /** Subject CN: the user name for client certificates. */
    commonName: string;
    /** Subject O values: the groups of a client certificate's user. */
    organizations?: readonly string[];
    /** Server certificates: the names and addresses clients dial. */
    dnsNames?: readonly string[];
    ipAddresses?: readonly string[];
    usage: "server" | "client";
}

const DAYS = "3650";

/** Subject parts reach openssl's `-subj`, where `/`, `=`, `+` and `,` have meaning: refuse them. */
const SUBJECT_PART = /^[A-Za-z0-9][A-Za-z0-9:._-]{0,63}$/;

function checked(value: string, pattern: RegExp, what: string): string {
    if (!pattern.test(value)) throw new Error(`invalid ${what} ${JSON.stringify(value)} for a certificate`);
    return value;
}

/** An IP SAN of either family; IPv6 only in its canonical text (hex digits and colons, nothing openssl reads otherwise). */
function checkedIp(ip: string): string {
    if (PATTERNS.ipv4.re.test(ip)) return ip;
    if (!isCanonicalIpv6(ip)) throw new Error(`invalid IP address ${JSON.stringify(ip)} for a certificate`);
    return ip;
}

/** `/O=a/O=b/CN=c`: one O per group, as Kubernetes reads groups from the O attributes. */
export function subject(req: Pick<CertRequest, "commonName" | "organizations">): string {
    const orgs = (req.organizations ?? []).map((o) => `/O=${checked(o, SUBJECT_PART, "organization")}`);
    return `${orgs.join("")}/CN=${checked(req.commonName, SUBJECT_PART, "common name")}`;
}

/** The X.509 extensions of a leaf certificate, as openssl `-addext` arguments. */
export function leafExtensions(req: CertRequest): string[] {
    const sans = [
        ...(req.dnsNames ?? []).map((d) => `DNS:${checked(d, PATTERNS.dnsSubdomain.re, "DNS name")}`),
        ...(req.ipAddresses ?? []).map((ip) => `IP:${checkedIp(ip)}`),
    ];
    const ext = [
        "basicConstraints=critical,CA:FALSE",
        "keyUsage=critical,digitalSignature,keyEncipherment",
        `extendedKeyUsage=${req.usage === "server" ? "serverAuth" : "clientAuth"}`,
    ];
    if (sans.length) ext.push(`subjectAltName=${sans.join(",")}`);
    return ext.flatMap((e) => ["-addext", e]);
}

/** An EC P-256 key pair in `dir/<base>.key` (0600) and `dir/<base>.pub`, made unless present. */
export function ensureKeyPair(dir: string, base: string): KeyPair {
    const keyPath = path.join(dir, `${base}.key`);
    const publicPath = path.join(dir, `${base}.pub`);
    if (!fs.existsSync(keyPath) || !fs.existsSync(publicPath)) {
        const { privateKey, publicKey } = generateKeyPairSync("ec", {
            namedCurve: "P-256",
            privateKeyEncoding: { type: "pkcs8", format: "pem" },
            publicKeyEncoding: { type: "spki", format: "pem" },
        });
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        fs.writeFileSync(keyPath, privateKey, { mode: 0o600 });
        fs.writeFileSync(publicPath, publicKey);
    }
    return { keyPath, publicPath };
}

function issued(certPath: string, keyPath: string): IssuedCert {
    return { certPath, keyPath, certPem: fs.readFileSync(certPath, "utf8"), keyPem: fs.readFileSync(keyPath, "utf8") };
}

const caCertPath = (dir: string) => path.join(dir, "ca.crt");

/** The cluster CA (`ca.crt`, `ca.key`), self-signed, made unless present. */
export async function ensureCa(dir: string, commonName: string): Promise<IssuedCert> {
    const { keyPath } = ensureKeyPair(dir, "ca");
    const certPath = caCertPath(dir);
    if (!fs.existsSync(certPath)) {
        await check([
            "openssl",
            "req",
            "-x509",
            "-new",
            "-key",
            keyPath,
            "-subj",
            subject({ commonName }),
            "-days",
            DAYS,
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
            "-out",
            certPath,
        ]);
    }
    return issued(certPath, keyPath);
}

/** The CA ensureCa made in `dir`, for later commands that issue more certificates. */
export function readCa(dir: string): IssuedCert {
    return issued(caCertPath(dir), path.join(dir, "ca.key"));
}

/** A certificate signed by `ca` in `dir/<base>.crt` with its key `dir/<base>.key`, made unless present. */
export async function issueCert(ca: IssuedCert, dir: string, base: string, req: CertRequest): Promise<IssuedCert> {
    const { keyPath } = ensureKeyPair(dir, base);
    const certPath = path.join(dir, `${base}.crt`);
    if (!fs.existsSync(certPath)) {
        // Written beside and renamed: a half-written certificate is never taken as issued.
        const tmp = `${certPath}.tmp`;
        await check([
            "openssl",
            "req",
            "-x509",
            "-new",
            "-key",
            keyPath,
            "-subj",
            subject(req),
            "-days",
            DAYS,
            "-CA",
            ca.certPath,
            "-CAkey",
            ca.keyPath,
            ...leafExtensions(req),
            "-out",
            tmp,
        ]);
        fs.renameSync(tmp, certPath);
    }
    return issued(certPath, keyPath);
}
