// WebhookCertificate: the CA and serving certificate of ovnkube-identity's admission webhook, made
// by the program once and kept in state as secrets, as upstream's chart makes them with Helm's
// genCA/genSignedCert (helm/ovn-kubernetes/charts/ovnkube-identity/templates/webhook.yaml). A new
// pair is made only when the names it must carry change, or when it is within RENEW_DAYS of expiry
// at an up (./x509 makes them).
import { X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import * as pulumi from "@pulumi/pulumi";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";
import { forge, newCertificate, newKeyPair, selfSignedCa } from "./x509";
import { canonicalAddress } from "../values";

/** Lifetime of the CA and of the serving certificate, and when an up makes a new pair. */
export const VALID_DAYS = 365;
export const RENEW_DAYS = 30;

export interface WebhookCertificateArgs {
    /** What the API server dials: every name and address the serving certificate must carry. */
    hosts: string[];
}

interface Issued {
    caCertificate: string;
    certificate: string;
    privateKey: string;
    notAfter: string;
}

/** A self-signed CA and a serving certificate for `hosts` signed by it. */
export function issueWebhookCertificate(hosts: readonly string[], now = new Date()): Issued {
    const notAfter = new Date(now.getTime() + VALID_DAYS * 86_400_000);
    const caKeys = newKeyPair();
    const ca = selfSignedCa("ovnkube-identity webhook CA", caKeys, now, notAfter);

    const servingKeys = newKeyPair();
    const serving = newCertificate(hosts[0], servingKeys.publicKey, now, notAfter);
    serving.setIssuer(ca.subject.attributes);
    serving.setExtensions([
        { name: "basicConstraints", cA: false },
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
        { name: "extKeyUsage", serverAuth: true },
        { name: "subjectAltName", altNames: hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h })) },
    ]);
    serving.sign(caKeys.privateKey, forge().md.sha256.create());
    return {
        caCertificate: forge().pki.certificateToPem(ca),
        certificate: forge().pki.certificateToPem(serving),
        privateKey: forge().pki.privateKeyToPem(servingKeys.privateKey),
        notAfter: notAfter.toISOString(),
    };
}

/** Whether a pair made before still serves `hosts` for long enough. */
function stillGood(outs: Partial<Issued>, hosts: readonly string[], now = Date.now()): boolean {
    if (!outs.certificate || !outs.notAfter) return false;
    const cert = new X509Certificate(outs.certificate);
    // X509Certificate spells an IPv6 SAN in full and uppercase: compared in one spelling.
    const names = new Set((cert.subjectAltName ?? "").split(", ").map((n) => canonicalAddress(n.replace(/^(DNS|IP Address):/, ""))));
    return hosts.every((h) => names.has(canonicalAddress(h))) && Date.parse(outs.notAfter) - now > RENEW_DAYS * 86_400_000;
}

export const webhookCertificateProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds: any, news: any) {
        const hosts = news.hosts as unknown;
        if (!Array.isArray(hosts) || hosts.length === 0 || hosts.some((h) => typeof h !== "string" || !/^[A-Za-z0-9.:-]{1,253}$/.test(h)))
            return {
                inputs: news,
                failures: [
                    { property: "hosts", reason: `must be a non-empty list of host names or addresses, got ${JSON.stringify(hosts)}` },
                ],
            };
        return { inputs: news };
    },
    async create(inputs: any) {
        return { id: "ovnkube-webhook-certificate", outs: { hosts: inputs.hosts, ...issueWebhookCertificate(inputs.hosts) } };
    },
    async diff(_id: string, olds: any, news: any) {
        return { changes: !stillGood(olds, news.hosts) };
    },
    async update(_id: string, _olds: any, news: any) {
        return { outs: { hosts: news.hosts, ...issueWebhookCertificate(news.hosts) } };
    },
};

const provider = providerStub("ovn-kubernetes", "WebhookCertificate", webhookCertificateProvider);

export class WebhookCertificate extends PackageResource {
    declare readonly caCertificate: pulumi.Output<string>;
    declare readonly certificate: pulumi.Output<string>;
    declare readonly privateKey: pulumi.Output<string>;
    declare readonly notAfter: pulumi.Output<string>;

    constructor(name: string, args: WebhookCertificateArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            provider,
            name,
            { hosts: args.hosts, caCertificate: undefined, certificate: undefined, privateKey: undefined, notAfter: undefined },
            {
                ...opts,
                additionalSecretOutputs: ["privateKey"],
            },
        );
    }
}
