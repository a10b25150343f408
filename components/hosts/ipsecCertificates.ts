// IpsecCertificates: the CA of ovnkube.ipsec and one certificate per chassis, made by the program
// and kept in state as secrets. ovs-monitor-ipsec authenticates a peer by the CA and by the
// certificate's CN, which must be the peer chassis' system-id (OVN names the peer by it in the
// tunnel's options:remote_name); upstream's ovn-ipsec pod asks for the same subject through a CSR
// (docs/facts/ovnkube-1.3.md §15). The CA's key is needed again for every node added later, so it
// is kept (secret); a node's certificate is made again only when its system-id changes, or at an up
// within RENEW_DAYS of its expiry; the CA likewise, which makes every certificate again.
import { X509Certificate } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";
import { forge, newCertificate, newKeyPair, selfSignedCa } from "../kube/x509";
import { PATTERNS } from "../values/patterns";

export const CA_VALID_DAYS = 3650;
export const CERT_VALID_DAYS = 365;
export const RENEW_DAYS = 30;
const DAY_MS = 86_400_000;
export const SUBJECT_ORGANIZATION = "ovn-kubernetes";

/** What the resource keeps: the CA and, by node name, each chassis' certificate and key (PEM). */
export interface IpsecPki {
    caCertificate: string;
    caPrivateKey: string;
    certificates: Record<string, string>;
    privateKeys: Record<string, string>;
}

const fresh = (pem: string | undefined, now: Date): boolean =>
    pem !== undefined && Date.parse(new X509Certificate(pem).validTo) - now.getTime() > RENEW_DAYS * DAY_MS;

/** The CN of a PEM certificate. */
export const commonNameOf = (pem: string): string | undefined => /(?:^|\n)CN=([^\n]*)/.exec(new X509Certificate(pem).subject)?.[1];

/**
 * The PKI for `systemIds` (node name → system-id): what `previous` holds where it still serves,
 * new pieces where not. Pure but for the keys' randomness.
 */
export function issueIpsecPki(systemIds: Readonly<Record<string, string>>, previous?: Partial<IpsecPki>, now = new Date()): IpsecPki {
    const f = forge();
    let { caCertificate, caPrivateKey } = previous ?? {};
    const keepCa = caCertificate !== undefined && caPrivateKey !== undefined && fresh(caCertificate, now);
    if (!keepCa) {
        const keys = newKeyPair();
        const ca = selfSignedCa("ovn-kubernetes IPsec CA", keys, now, new Date(now.getTime() + CA_VALID_DAYS * DAY_MS));
        caCertificate = f.pki.certificateToPem(ca);
        caPrivateKey = f.pki.privateKeyToPem(keys.privateKey);
    }
    const ca = f.pki.certificateFromPem(caCertificate!);
    const caKey = f.pki.privateKeyFromPem(caPrivateKey!);
    const out: IpsecPki = { caCertificate: caCertificate!, caPrivateKey: caPrivateKey!, certificates: {}, privateKeys: {} };
    for (const [node, systemId] of Object.entries(systemIds).sort(([a], [b]) => a.localeCompare(b))) {
        const cert = previous?.certificates?.[node];
        const key = previous?.privateKeys?.[node];
        if (keepCa && cert !== undefined && key !== undefined && fresh(cert, now) && commonNameOf(cert) === systemId) {
            out.certificates[node] = cert;
            out.privateKeys[node] = key;
            continue;
        }
        const keys = newKeyPair();
        const leaf = newCertificate(systemId, keys.publicKey, now, new Date(now.getTime() + CERT_VALID_DAYS * DAY_MS));
        // O before CN, as upstream's request has it: ovs-monitor-ipsec reads the CN only when another
        // attribute follows it in the RFC 2253 form (`CN=(.+?),`).
        leaf.setSubject([
            { name: "organizationName", value: SUBJECT_ORGANIZATION },
            { name: "commonName", value: systemId },
        ]);
        leaf.setIssuer(ca.subject.attributes);
        leaf.setExtensions([
            { name: "basicConstraints", cA: false },
            { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
            // As upstream's request: the system-id also as a DNS name.
            { name: "subjectAltName", altNames: [{ type: 2, value: systemId }] },
        ]);
        leaf.sign(caKey, f.md.sha256.create());
        out.certificates[node] = f.pki.certificateToPem(leaf);
        out.privateKeys[node] = f.pki.privateKeyToPem(keys.privateKey);
    }
    return out;
}

/** Whether `previous` already is what issueIpsecPki would return for `systemIds`. */
export function pkiCurrent(systemIds: Readonly<Record<string, string>>, previous: Partial<IpsecPki>, now = new Date()): boolean {
    const nodes = Object.keys(systemIds);
    return (
        fresh(previous.caCertificate, now) &&
        previous.caPrivateKey !== undefined &&
        nodes.length === Object.keys(previous.certificates ?? {}).length &&
        nodes.every((n) => {
            const cert = previous.certificates?.[n];
            return fresh(cert, now) && commonNameOf(cert!) === systemIds[n] && previous.privateKeys?.[n] !== undefined;
        })
    );
}

function systemIdFailures(systemIds: unknown): pulumi.dynamic.CheckFailure[] {
    const { re, what } = PATTERNS.ovnName;
    if (typeof systemIds !== "object" || systemIds === null || Array.isArray(systemIds))
        return [{ property: "systemIds", reason: "must map node names to system-ids" }];
    return Object.entries(systemIds)
        .filter(([, id]) => typeof id !== "string" || !re.test(id))
        .map(([node, id]) => ({ property: `systemIds.${node}`, reason: `must be ${what}, got ${JSON.stringify(id)}` }));
}

const outputsOf = (systemIds: Record<string, string>, pki: IpsecPki) => ({ systemIds, ...pki });

export const ipsecCertificatesProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds: any, news: any) {
        const failures = systemIdFailures(news.systemIds);
        return failures.length ? { inputs: news, failures } : { inputs: news };
    },
    async create(inputs: any) {
        return { id: "ovn-ipsec-pki", outs: outputsOf(inputs.systemIds, issueIpsecPki(inputs.systemIds)) };
    },
    async diff(_id: string, olds: any, news: any) {
        return { changes: !pkiCurrent(news.systemIds, olds) };
    },
    async update(_id: string, olds: any, news: any) {
        return { outs: outputsOf(news.systemIds, issueIpsecPki(news.systemIds, olds)) };
    },
};

const provider = providerStub("ovn-kubernetes", "IpsecCertificates", ipsecCertificatesProvider);

export interface IpsecCertificatesArgs {
    /** Node name → the chassis' system-id (the certificate's CN). */
    systemIds: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

export class IpsecCertificates extends PackageResource {
    declare readonly caCertificate: pulumi.Output<string>;
    declare readonly caPrivateKey: pulumi.Output<string>;
    declare readonly certificates: pulumi.Output<Record<string, string>>;
    declare readonly privateKeys: pulumi.Output<Record<string, string>>;

    constructor(name: string, args: IpsecCertificatesArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            provider,
            name,
            {
                systemIds: args.systemIds,
                caCertificate: undefined,
                caPrivateKey: undefined,
                certificates: undefined,
                privateKeys: undefined,
            },
            { ...opts, additionalSecretOutputs: ["caPrivateKey", "privateKeys"] },
        );
    }
}
