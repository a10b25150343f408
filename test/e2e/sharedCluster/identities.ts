// Node identities and ovnkube's rights, on the shared cluster: every node's ovnkube has its own
// certificate, approved by ovnkube-identity (first asked with its kubelet's credentials, renewed with
// its own); the identity webhook refuses one node's change to another Node's annotations; and no
// ovnkube log on any host holds a request the API server refused.
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { OVN_NODE_USER_PREFIX, OVN_NODES_GROUP } from "../../../components/kube/identity";
import { buildKubeconfig, KubeClient } from "../../../lab/kubeclient";
import { hostExec } from "../../../lab/localcluster";
import { enterableHost } from "../../../lab/localcluster/exec";
import { inHost } from "../../../lab/localcluster/hostfs";
import type { FamilyLab } from "../support/familyProof";

export function identityChecks(family: () => FamilyLab): void {
    const lab = () => family().lab;

    /** A node's own ovnkube certificate (system:ovn-node:<node>), read from its host, as a client of the API server. */
    async function nodeIdentityClient(node: string): Promise<KubeClient> {
        const pem = await hostExec(lab().cluster, node, ["cat", "/var/run/ovn-kubernetes/certs/ovnkube-client-current.pem"]);
        assert.equal(pem.code, 0, `${node}: no node certificate: ${pem.stderr}`);
        const blocks = pem.stdout.match(/-----BEGIN [^-]+-----[\s\S]+?-----END [^-]+-----\n?/g) ?? [];
        const certPem = blocks.find((b) => b.includes("CERTIFICATE"))!;
        const keyPem = blocks.find((b) => b.includes("PRIVATE KEY"))!;
        assert.equal(new X509Certificate(certPem).subject, `O=${OVN_NODES_GROUP}\nCN=${OVN_NODE_USER_PREFIX}${node}`);
        const { apiServerUrl, caPem } = lab().kubernetes.controlPlane;
        return KubeClient.fromKubeconfig(
            buildKubeconfig({ server: apiServerUrl, caPem, user: `${OVN_NODE_USER_PREFIX}${node}`, credentials: { certPem, keyPem } }),
        );
    }

    test("node identities: every node's ovnkube has its own approved certificate, and the webhook refuses one node's change to another Node's annotations", async () => {
        const csrs = await lab().admin.list("certificates.k8s.io/v1", "CertificateSigningRequest");
        const approved = csrs
            .filter((c) => ((c.status as { conditions?: Array<{ type: string }> }).conditions ?? []).some((x) => x.type === "Approved"))
            .map((c) => (c.spec as { username: string }).username)
            .sort();
        // ovnkube's certificates last 10 minutes (--cert-duration, config.go:156 at v1.3.0) and are renewed
        // at 70-90% of that with the node's own certificate: a renewal may already be there.
        const nodes = lab().cluster.hosts.map((h) => h.name);
        assert.deepEqual(
            approved.filter((u) => u.startsWith("system:node:")),
            nodes.map((n) => `system:node:${n}`),
            "each node asked once with its kubelet's credentials, and ovnkube-identity approved it",
        );
        for (const u of approved.filter((x) => !x.startsWith("system:node:")))
            assert.ok(
                nodes.some((n) => u === `${OVN_NODE_USER_PREFIX}${n}`),
                `${u}: only a node's own ovnkube identity renews its certificate`,
            );

        const node2 = await nodeIdentityClient("node2");
        try {
            const annotation = "k8s.ovn.org/host-cidrs";
            const own = (await lab().admin.get({ apiVersion: "v1", kind: "Node", name: "node2" })).metadata.annotations![annotation];
            // Its own Node: allowed (the same value written again).
            await node2.patch(
                { apiVersion: "v1", kind: "Node", name: "node2" },
                { metadata: { annotations: { [annotation]: own } } },
                "merge",
                { subresource: "status" },
            );
            // Another Node: refused by the webhook, which names both nodes.
            const other = node2.patch(
                { apiVersion: "v1", kind: "Node", name: "node1" },
                { metadata: { annotations: { [annotation]: own } } },
                "merge",
                { subresource: "status" },
            );
            await assert.rejects(other, (e: Error) => {
                assert.match(e.message, /admission webhook "ovn-kubernetes-admission-webhook-node\.k8s\.io" denied the request/);
                assert.match(e.message, /ovnkube-node on node: "node2" is not allowed to modify nodes "node1" annotations/);
                return true;
            });
            const after = (await lab().admin.get({ apiVersion: "v1", kind: "Node", name: "node1" })).metadata.annotations![annotation];
            assert.notEqual(after, own, "node1's annotation is its own, untouched");
        } finally {
            node2.close();
        }
    });

    test("ovnkube was refused no API call: its logs on every host hold no forbidden request", async () => {
        for (const host of lab().cluster.hosts) {
            const dir = inHost(enterableHost(lab().cluster, host.name).holderPid, "/var/log/ovn-kubernetes");
            const logs = fs.readdirSync(dir).filter((f) => f.endsWith(".log") && f.startsWith("ovnkube"));
            assert.ok(logs.length > 0, `${host.name}: no ovnkube log in ${dir}`);
            for (const log of logs) {
                const forbidden = fs
                    .readFileSync(path.join(dir, log), "utf8")
                    .split("\n")
                    .filter((l) => /forbidden/i.test(l));
                assert.deepEqual(forbidden.slice(0, 3), [], `${host.name} ${log}`);
            }
        }
    });
}
