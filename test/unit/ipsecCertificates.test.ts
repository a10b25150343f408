// IPsec's PKI (components/hosts/ipsecCertificates.ts): a CA kept with its key, one certificate per
// chassis whose CN is the chassis' system-id, checked with Node's own X.509 and with openssl, and
// the provider keeping every piece until its system-id changes or it nears expiry.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createPrivateKey, X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import {
    CERT_VALID_DAYS,
    commonNameOf,
    ipsecCertificatesProvider as provider,
    issueIpsecPki,
    pkiCurrent,
    RENEW_DAYS,
} from "../../components/hosts/ipsecCertificates";

const DAY = 86_400_000;
const IDS = { node1: "5f0e2a9c-1b7d-4c3e-9a61-0d2f8b7c6e51", node2: "b3c1d8e0-7a24-4f9b-8e35-2c6d0a9f1e47" };
const pki = issueIpsecPki(IDS);

/** openssl's verdict on `cert` against `ca` at `at` (as strongswan and libreswan check a peer's chain). */
function opensslVerify(ca: string, cert: string, at = new Date()): string {
    const dir = fs.mkdtempSync(path.join(tmpdir(), "ipsec-pki-"));
    try {
        fs.writeFileSync(path.join(dir, "ca.pem"), ca);
        fs.writeFileSync(path.join(dir, "cert.pem"), cert);
        const attime = String(Math.floor(at.getTime() / 1000) + 60);
        const r = spawnSync("openssl", ["verify", "-attime", attime, "-CAfile", "ca.pem", "cert.pem"], { cwd: dir, encoding: "utf8" });
        return `${r.stdout}${r.stderr}`.trim();
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

function opensslSubject(cert: string): string {
    const r = spawnSync("openssl", ["x509", "-noout", "-subject", "-nameopt", "RFC2253"], { input: cert, encoding: "utf8" });
    return r.stdout.trim().replace(/^subject=/, "");
}

describe("issueIpsecPki", () => {
    it("signs one certificate per node, its CN and DNS name the system-id, that openssl verifies against the CA", () => {
        for (const [node, id] of Object.entries(IDS)) {
            const cert = new X509Certificate(pki.certificates[node]);
            assert.equal(commonNameOf(pki.certificates[node]), id);
            // As ovs-monitor-ipsec reads it (openssl, RFC 2253, `CN=(.+?),`).
            assert.equal(opensslSubject(pki.certificates[node]), `CN=${id},O=ovn-kubernetes`);
            assert.equal(cert.subjectAltName, `DNS:${id}`);
            assert.equal(cert.ca, false);
            assert.equal(opensslVerify(pki.caCertificate, pki.certificates[node]), "cert.pem: OK");
            assert.ok(cert.checkPrivateKey(createPrivateKey(pki.privateKeys[node])), `${node}'s key matches its certificate`);
            const days = (Date.parse(cert.validTo) - Date.now()) / DAY;
            assert.ok(days > CERT_VALID_DAYS - 1 && days <= CERT_VALID_DAYS, `valid ${days} days`);
        }
        assert.equal(new X509Certificate(pki.caCertificate).ca, true);
        assert.ok(new X509Certificate(pki.caCertificate).checkPrivateKey(createPrivateKey(pki.caPrivateKey)));
        assert.notEqual(pki.privateKeys.node1, pki.privateKeys.node2);
    });

    it("a certificate of another CA is refused by openssl", () => {
        const other = issueIpsecPki({ node1: IDS.node1 });
        assert.match(opensslVerify(pki.caCertificate, other.certificates.node1), /error cert.pem: verification failed/);
    });

    it("keeps what still serves: the same ids give the same PEMs; a new node gets its own; a changed system-id only its node's", () => {
        assert.deepEqual(issueIpsecPki(IDS, pki), pki);
        const grown = issueIpsecPki({ ...IDS, node3: "node3-id" }, pki);
        assert.equal(grown.caCertificate, pki.caCertificate);
        assert.equal(grown.certificates.node1, pki.certificates.node1);
        assert.equal(commonNameOf(grown.certificates.node3), "node3-id");
        assert.equal(opensslVerify(pki.caCertificate, grown.certificates.node3), "cert.pem: OK");
        const changed = issueIpsecPki({ ...IDS, node2: "new-id" }, pki);
        assert.equal(changed.certificates.node1, pki.certificates.node1);
        assert.equal(commonNameOf(changed.certificates.node2), "new-id");
        const shrunk = issueIpsecPki({ node1: IDS.node1 }, pki);
        assert.deepEqual(Object.keys(shrunk.certificates), ["node1"]);
    });

    it("renews a certificate within RENEW_DAYS of its expiry, and everything with a CA near its own", () => {
        const late = new Date(Date.now() + (CERT_VALID_DAYS - RENEW_DAYS + 1) * DAY);
        const renewed = issueIpsecPki(IDS, pki, late);
        assert.equal(renewed.caCertificate, pki.caCertificate);
        assert.notEqual(renewed.certificates.node1, pki.certificates.node1);
        assert.equal(pkiCurrent(IDS, pki, late), false);
        const caLate = new Date(Date.now() + 3650 * DAY - (RENEW_DAYS - 1) * DAY);
        const newCa = issueIpsecPki(IDS, pki, caLate);
        assert.notEqual(newCa.caCertificate, pki.caCertificate);
        assert.equal(opensslVerify(newCa.caCertificate, newCa.certificates.node2, caLate), "cert.pem: OK");
    });
});

describe("the IpsecCertificates provider", () => {
    it("check names a system-id that is no OVN name", async () => {
        const r = await provider.check!({}, { systemIds: { node1: IDS.node1, node2: "x;reboot" } });
        assert.deepEqual(
            r.failures?.map((f) => f.property),
            ["systemIds.node2"],
        );
    });

    it("create, then diff: none for the same ids, a change for a new node or another system-id; update keeps the CA", async () => {
        const created = await provider.create!({ systemIds: IDS });
        const outs = created.outs;
        assert.equal((await provider.diff!(created.id, outs, { systemIds: IDS })).changes, false);
        assert.equal((await provider.diff!(created.id, outs, { systemIds: { ...IDS, node3: "n3" } })).changes, true);
        assert.equal((await provider.diff!(created.id, outs, { systemIds: { ...IDS, node1: "other" } })).changes, true);
        assert.equal((await provider.diff!(created.id, outs, { systemIds: { node1: IDS.node1 } })).changes, true);
        const updated = await provider.update!(created.id, outs, { systemIds: { ...IDS, node3: "n3" } });
        assert.equal(updated.outs.caCertificate, outs.caCertificate);
        assert.equal(updated.outs.certificates.node2, outs.certificates.node2);
        assert.deepEqual(updated.outs.systemIds, { ...IDS, node3: "n3" });
    });
});
