// Dual stack, proven on the shared cluster (3 Debian unstable hosts on the lab's IPv4 and IPv6
// underlay, Kubernetes 1.36 with both service ranges and every kubelet's --node-ip in both families,
// ovn-kubernetes 1.3 interconnect from the lab's dual-stack stack file): the spread Deployment's
// pods get an address of each family in their node's planned subnets; ping and ping6 across every
// pair; a RequireDualStack Service answers at both ClusterIPs, and a NodePort Service from the
// outside at every node; the outside sees each pod's traffic from its node's address of that
// family; a NetworkPolicy admitting one peer's IPv4 address only holds in both families.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pollUntil } from "../../../lab/kubeclient";
import { CHECK_PORT, tcpExchange } from "../../../lab/localcluster/checks";
import { ipv6Of } from "../../../lab/localcluster/ipv6Checks";
import { DEMO_NAMESPACE, podRef, type KubePod } from "../../../lab/localcluster/kubeWorkloads";
import {
    SERVER_LABEL,
    assertOutsideEveryFamily,
    assertPingEveryFamily,
    assertServiceEveryFamily,
    assertNodePortFromOutside,
    type FamilyLab,
} from "../support/familyProof";
import { assertPlannedAddresses } from "../support/workloadProof";

/** The RequireDualStack Service these checks leave for the workloads' removal. */
export const DUAL_STACK_SERVICE = "dual";
/** The NodePort Service these checks leave for the workloads' removal. */
export const NODE_PORT_SERVICE = "dual-nodeport";
const POLICY = "server-from-peer-v4";

/** The dual-stack checks on the shared cluster's spread pods. */
export function dualStackChecks(family: () => FamilyLab): void {
    const lab = () => family().lab;
    /** One pod per node, sorted by node: [client, server, other]. */
    const pods = () => family().pods;

    describe("dual stack", () => {
        /** The pod's address of family `i` (0: IPv4, 1: IPv6). */
        const addressOf = (pod: KubePod, i: 0 | 1) => (i === 0 ? pod.ip : ipv6Of({ ...podRef(pod), ips: pod.ips }));

        test("every pod gets one address per family, each in its node's planned subnet of that family", async () => {
            assert.ok(pods().every((p) => p.ips.length === 2));
            await assertPlannedAddresses(lab(), lab().model, pods());
        });

        test("ping and ping6 succeed across every pair of pods, and from every host", () => assertPingEveryFamily(lab(), pods()));

        test("a RequireDualStack Service answers at both ClusterIPs, each in its service range, keeping the client's address", () =>
            assertServiceEveryFamily(lab(), DUAL_STACK_SERVICE, SERVER_LABEL, "RequireDualStack", pods()));

        test("pods reach the outside over both families, SNATed to their node's address of that family", () =>
            assertOutsideEveryFamily(lab(), pods()));

        test("a NodePort Service answers from the outside at every node's IPv4 address", () =>
            assertNodePortFromOutside(lab(), NODE_PORT_SERVICE, pods()[1]));

        test("a NetworkPolicy admitting one peer's IPv4 address holds in both families", async () => {
            const [peer, server, other] = pods();
            await lab().admin.create({
                apiVersion: "networking.k8s.io/v1",
                kind: "NetworkPolicy",
                metadata: { name: POLICY, namespace: DEMO_NAMESPACE },
                spec: {
                    podSelector: { matchLabels: SERVER_LABEL },
                    policyTypes: ["Ingress"],
                    ingress: [{ from: [{ ipBlock: { cidr: `${addressOf(peer, 0)}/32` } }] }],
                },
            });
            const reach = async (from: KubePod, family: 0 | 1) =>
                (await tcpExchange(lab().cluster, { pod: podRef(server) }, addressOf(server, family), { pod: podRef(from) }, CHECK_PORT, 1))
                    .ok;
            const want = { "peer v4": true, "peer v6": false, "other v4": false, "other v6": false };
            const seen = await pollUntil(
                async () => {
                    const now = {
                        "peer v4": await reach(peer, 0),
                        "peer v6": await reach(peer, 1),
                        "other v4": await reach(other, 0),
                        "other v6": await reach(other, 1),
                    };
                    if (JSON.stringify(now) !== JSON.stringify(want)) throw new Error(`seen ${JSON.stringify(now)}`);
                    return now;
                },
                { timeoutMs: 60_000, intervalMs: 1000, what: "the policy to admit the peer over IPv4 only" },
            );
            assert.deepEqual(seen, want);
            await lab().admin.delete({
                apiVersion: "networking.k8s.io/v1",
                kind: "NetworkPolicy",
                namespace: DEMO_NAMESPACE,
                name: POLICY,
            });
        });
    });
}
