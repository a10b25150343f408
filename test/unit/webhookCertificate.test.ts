// The admission webhook's certificate (components/kube/webhookCertificate.ts): a CA and a serving
// certificate for every host the API server may dial, read back with Node's own X.509 and TLS,
// and the dynamic provider that keeps the pair until the hosts change or it nears expiry.
import assert from "node:assert/strict";
import { createPrivateKey, X509Certificate } from "node:crypto";
import type { AddressInfo } from "node:net";
import * as tls from "node:tls";
import { describe, it } from "node:test";
import * as forge from "node-forge";
import {
    issueWebhookCertificate,
    RENEW_DAYS,
    VALID_DAYS,
    webhookCertificateProvider as provider,
} from "../../components/kube/webhookCertificate";

const DAY = 86_400_000;
const HOSTS = ["172.31.40.11", "localhost", "webhook.ovn-kubernetes.example"];
/** The OIDs Node lists as the certificate's extended key usage. */
const SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

const issued = issueWebhookCertificate(HOSTS);
const ca = new X509Certificate(issued.caCertificate);
const serving = new X509Certificate(issued.certificate);
const extension = (pem: string, name: string) =>
    forge.pki.certificateFromPem(pem).getExtension(name) as Record<string, unknown> | undefined;

/** Whether a TLS client that trusts only the CA accepts the pair served for `host` (an address or a name that resolves locally). */
async function handshake(
    pair: { certificate: string; privateKey: string; caCertificate: string },
    host: string,
    servername?: string,
): Promise<true | string> {
    const server = tls.createServer({ cert: pair.certificate, key: pair.privateKey }, (s) => s.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
        const { port } = server.address() as AddressInfo;
        return await new Promise((resolve) => {
            const socket = tls.connect({
                host: "127.0.0.1",
                port,
                ca: pair.caCertificate,
                servername,
                checkServerIdentity: (_h, cert) => tls.checkServerIdentity(host, cert),
            });
            socket.once("secureConnect", () => (socket.end(), resolve(true)));
            socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        });
    } finally {
        server.close();
    }
}

describe("issueWebhookCertificate", () => {
    it("makes a CA that may sign certificates and nothing else", () => {
        assert.equal(ca.ca, true);
        assert.equal(ca.subject, ca.issuer, "self-signed");
        assert.ok(ca.checkIssued(ca) && ca.verify(ca.publicKey));
        const basic = extension(issued.caCertificate, "basicConstraints");
        assert.equal(basic?.cA, true);
        assert.equal(basic?.critical, true);
        const usage = extension(issued.caCertificate, "keyUsage");
        assert.equal(usage?.keyCertSign, true);
        assert.equal(usage?.digitalSignature ?? false, false);
    });

    it("signs with it a serving certificate, no CA itself, for server authentication", () => {
        assert.equal(serving.ca, false);
        assert.ok(serving.checkIssued(ca), "issued by the CA");
        assert.ok(serving.verify(ca.publicKey), "signature verifies against the CA's key");
        assert.ok(!serving.verify(new X509Certificate(issueWebhookCertificate(HOSTS).caCertificate).publicKey), "and no other CA's");
        assert.deepEqual(serving.keyUsage, [SERVER_AUTH]);
        assert.equal(extension(issued.certificate, "keyUsage")?.keyCertSign ?? false, false);
        assert.equal(serving.subject, `CN=${HOSTS[0]}`);
    });

    it("names every host in its subjectAltName: addresses as IP, names as DNS", () => {
        assert.deepEqual(serving.subjectAltName?.split(", "), [
            "IP Address:172.31.40.11",
            "DNS:localhost",
            "DNS:webhook.ovn-kubernetes.example",
        ]);
        assert.equal(serving.checkIP("172.31.40.11"), "172.31.40.11");
        assert.equal(serving.checkHost("webhook.ovn-kubernetes.example"), "webhook.ovn-kubernetes.example");
        assert.equal(serving.checkIP("172.31.40.12"), undefined);
        assert.equal(serving.checkHost("other.example"), undefined);
    });

    it("returns the serving certificate's own private key", () => {
        assert.ok(serving.checkPrivateKey(createPrivateKey(issued.privateKey)));
        assert.ok(!ca.checkPrivateKey(createPrivateKey(issued.privateKey)), "not the CA's");
        assert.ok(!serving.checkPrivateKey(createPrivateKey(issueWebhookCertificate(HOSTS).privateKey)));
    });

    it(`is valid from now for ${VALID_DAYS} days, both certificates, and says until when`, () => {
        const now = new Date("2026-03-01T12:00:00Z");
        const pair = issueWebhookCertificate(["localhost"], now);
        assert.equal(pair.notAfter, new Date(now.getTime() + VALID_DAYS * DAY).toISOString());
        for (const pem of [pair.caCertificate, pair.certificate]) {
            const cert = new X509Certificate(pem);
            assert.equal(Date.parse(cert.validFrom), now.getTime());
            assert.equal(Date.parse(cert.validTo), Date.parse(pair.notAfter));
        }
    });

    it("gives every pair its own keys and serials", () => {
        const again = issueWebhookCertificate(HOSTS);
        assert.notEqual(again.privateKey, issued.privateKey);
        assert.notEqual(new X509Certificate(again.certificate).serialNumber, serving.serialNumber);
        assert.notEqual(new X509Certificate(again.caCertificate).serialNumber, ca.serialNumber);
    });

    it("is accepted by a TLS client trusting the CA at every host it names, and refused at another", async () => {
        const local = issueWebhookCertificate(["127.0.0.1", "localhost"]);
        assert.equal(await handshake(local, "127.0.0.1"), true);
        assert.equal(await handshake(local, "localhost", "localhost"), true);
        assert.equal(await handshake(issueWebhookCertificate(["127.0.0.2"]), "127.0.0.1"), "ERR_TLS_CERT_ALTNAME_INVALID");
        // Another pair's CA has the same name, but not the key that signed this certificate.
        assert.equal(await handshake({ ...local, caCertificate: issued.caCertificate }, "127.0.0.1"), "CERT_SIGNATURE_FAILURE");
    });
});

describe("the WebhookCertificate provider", () => {
    const diff = async (olds: Record<string, unknown>, hosts: string[]) =>
        (await provider.diff!("ovnkube-webhook-certificate", olds, { hosts })).changes;

    it("check: takes a non-empty list of host names and addresses", async () => {
        for (const hosts of [["localhost"], ["172.31.40.11"], ["master-0.example.com", "10.0.0.1"]]) {
            assert.deepEqual(await provider.check!({}, { hosts }), { inputs: { hosts } });
        }
    });

    it("check: refuses an empty or malformed list, naming hosts", async () => {
        for (const hosts of [[], undefined, "localhost", [""], ["a b"], ["$(reboot)"], [42], ["x".repeat(254)]]) {
            const { failures } = await provider.check!({}, { hosts });
            assert.equal(failures?.length, 1, JSON.stringify(hosts));
            assert.equal(failures[0].property, "hosts");
            assert.match(failures[0].reason, /must be a non-empty list of host names or addresses/);
        }
    });

    it("create and update: a new pair for the hosts, kept with them", async () => {
        const created = await provider.create({ hosts: ["localhost"] });
        assert.equal(created.id, "ovnkube-webhook-certificate");
        assert.deepEqual(Object.keys(created.outs).sort(), ["caCertificate", "certificate", "hosts", "notAfter", "privateKey"]);
        assert.deepEqual(created.outs.hosts, ["localhost"]);
        assert.equal(new X509Certificate(created.outs.certificate).checkHost("localhost"), "localhost");
        const updated = await provider.update!(created.id, created.outs, { hosts: ["172.31.40.11"] });
        assert.deepEqual(updated.outs?.hosts, ["172.31.40.11"]);
        const cert = new X509Certificate(updated.outs!.certificate);
        assert.equal(cert.checkIP("172.31.40.11"), "172.31.40.11");
        assert.ok(cert.checkIssued(new X509Certificate(updated.outs!.caCertificate)));
        assert.notEqual(updated.outs!.caCertificate, created.outs.caCertificate);
    });

    it("diff: keeps the pair for the same hosts, or fewer", async () => {
        const olds = { hosts: HOSTS, ...issued };
        assert.equal(await diff(olds, HOSTS), false);
        assert.equal(await diff(olds, [...HOSTS].reverse()), false);
        assert.equal(await diff(olds, ["localhost"]), false);
    });

    it("diff: keeps the pair for an IPv6 address, however it is spelled (the certificate spells it in full, uppercase)", async () => {
        const v6 = ["fd00:172:31:190::2"];
        const olds = { hosts: v6, ...issueWebhookCertificate(v6) };
        assert.equal(await diff(olds, v6), false);
        assert.equal(await diff(olds, ["FD00:172:31:190:0:0:0:2"]), false);
        assert.equal(await diff(olds, ["fd00:172:31:190::3"]), true);
    });

    it("diff: a new pair when a host is added or changed", async () => {
        const olds = { hosts: HOSTS, ...issued };
        assert.equal(await diff(olds, [...HOSTS, "172.31.40.12"]), true);
        assert.equal(await diff(olds, ["172.31.40.12"]), true);
        // A name is not its address.
        assert.equal(await diff({ hosts: ["localhost"], ...issueWebhookCertificate(["localhost"]) }, ["127.0.0.1"]), true);
    });

    it(`diff: a new pair within ${RENEW_DAYS} days of expiry, not before`, async () => {
        const old = issueWebhookCertificate(HOSTS, new Date(Date.now() - 340 * DAY));
        assert.ok(Date.parse(old.notAfter) - Date.now() < RENEW_DAYS * DAY);
        assert.equal(await diff({ hosts: HOSTS, ...old }, HOSTS), true);
        const older = issueWebhookCertificate(HOSTS, new Date(Date.now() - 330 * DAY));
        assert.equal(await diff({ hosts: HOSTS, ...older }, HOSTS), false, "35 days left");
    });

    it("diff: a new pair when the state holds none", async () => {
        assert.equal(await diff({ hosts: HOSTS }, HOSTS), true);
        assert.equal(await diff({ hosts: HOSTS, certificate: issued.certificate }, HOSTS), true);
    });
});
