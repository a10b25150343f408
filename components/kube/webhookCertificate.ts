// WebhookCertificate: the CA and serving certificate of ovnkube-identity's admission webhook, made
// by the program once and kept in state as secrets, as upstream's chart makes them with Helm's
// genCA/genSignedCert (helm/ovn-kubernetes/charts/ovnkube-identity/templates/webhook.yaml). A new
// pair is made only when the names it must carry change, or when it is within RENEW_DAYS of expiry
// at an up. Node's crypto makes the keys; node-forge writes the X.509 certificates, which Node's
// crypto can read but not create.
import { generateKeyPairSync, randomBytes, X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import * as pulumi from "@pulumi/pulumi";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";

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
    // Loaded here: only a program (or provider host) that makes a certificate pays for it.
    const forge = require("node-forge") as typeof import("node-forge");
    const notAfter = new Date(now.getTime() + VALID_DAYS * 86_400_000);
    const keyPair = () => {
        const k = generateKeyPairSync("rsa", { modulusLength: 2048 });
        return {
            privateKey: forge.pki.privateKeyFromPem(k.privateKey.export({ type: "pkcs1", format: "pem" }).toString()),
            publicKey: forge.pki.publicKeyFromPem(k.publicKey.export({ type: "spki", format: "pem" }).toString()),
        };
    };
    const make = (subject: string, publicKey: import("node-forge").pki.PublicKey) => {
        const cert = forge.pki.createCertificate();
        cert.publicKey = publicKey;
        // Positive, random: two pairs never share a serial.
        cert.serialNumber = "01" + randomBytes(15).toString("hex");
        cert.validity.notBefore = now;
        cert.validity.notAfter = notAfter;
        cert.setSubject([{ name: "commonName", value: subject }]);
        return cert;
    };
    const caKeys = keyPair();
    const ca = make("ovnkube-identity webhook CA", caKeys.publicKey);
    ca.setIssuer(ca.subject.attributes);
    ca.setExtensions([
        { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
        { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ]);
    ca.sign(caKeys.privateKey, forge.md.sha256.create());

    const servingKeys = keyPair();
    const serving = make(hosts[0], servingKeys.publicKey);
    serving.setIssuer(ca.subject.attributes);
    serving.setExtensions([
        { name: "basicConstraints", cA: false },
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
        { name: "extKeyUsage", serverAuth: true },
        { name: "subjectAltName", altNames: hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h })) },
    ]);
    serving.sign(caKeys.privateKey, forge.md.sha256.create());
    return {
        caCertificate: forge.pki.certificateToPem(ca),
        certificate: forge.pki.certificateToPem(serving),
        privateKey: forge.pki.privateKeyToPem(servingKeys.privateKey),
        notAfter: notAfter.toISOString(),
    };
}

/** Whether a pair made before still serves `hosts` for long enough. */
function stillGood(outs: Partial<Issued>, hosts: readonly string[], now = Date.now()): boolean {
    if (!outs.certificate || !outs.notAfter) return false;
    const cert = new X509Certificate(outs.certificate);
    const names = new Set((cert.subjectAltName ?? "").split(", ").map((n) => n.replace(/^(DNS|IP Address):/, "")));
    return hosts.every((h) => names.has(h)) && Date.parse(outs.notAfter) - now > RENEW_DAYS * 86_400_000;
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
