// Admin network policy (`ovnkube.features.adminNetworkPolicy`), proven by TCP between pods of
// three namespaces on the shared cluster: a NetworkPolicy in `anp-server` admits `anp-client` only;
// an AdminNetworkPolicy denying `anp-client` there wins over that Allow; a
// BaselineAdminNetworkPolicy denying `anp-client` in `anp-server` and `anp-open` holds only in
// `anp-open`, where no NetworkPolicy allows it. Each policy's outcome is awaited (ovnkube applies
// it asynchronously), then the policy is deleted and the reachability it removed comes back.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { pollUntil, type KubeObject } from "../../../lab/kubeclient";
import { CHECK_PORT, tcpExchange } from "../../../lab/localcluster/checks";
import { podRef, startDemoDeployment, type KubePod } from "../../../lab/localcluster/kubeWorkloads";
import type { FamilyLab } from "../support/familyProof";
import { phase } from "../support/phase";

/** sigs.k8s.io/network-policy-api v0.1.5, the version both releases' go.mod name. */
const POLICY_API = "policy.networking.k8s.io/v1alpha1";
/** The only name a BaselineAdminNetworkPolicy may have (its CRD's validation, v0.1.5). */
const BASELINE_NAME = "default";
const ANP_NAME = "deny-client-to-server";
const NETPOL_NAME = "allow-client";
const NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

const NS = { server: "anp-server", open: "anp-open", client: "anp-client" } as const;
/** The probe Deployments, one per namespace, for the workloads' removal. */
export const ADMIN_NETWORK_POLICY_DEPLOYMENTS = Object.values(NS).map((namespace) => ({ name: "probe", namespace }));

const byName = (namespace: string) => ({ namespaces: { matchLabels: { [NAMESPACE_NAME_LABEL]: namespace } } });

/** Who reaches whom: the client and a pod of the default namespace to `anp-server`, the client to `anp-open`. */
type Reach = { "client→server": boolean; "other→server": boolean; "client→open": boolean };

export function adminNetworkPolicyChecks(family: () => FamilyLab): void {
    describe("admin network policy", () => {
        const pods: Record<keyof typeof NS, KubePod> = {} as never;
        const lab = () => family().lab;

        const reaches = async (from: KubePod, to: KubePod) =>
            (await tcpExchange(lab().cluster, { pod: podRef(to) }, to.ip, { pod: podRef(from) }, CHECK_PORT, 1)).ok;
        const reachNow = async (): Promise<Reach> => ({
            "client→server": await reaches(pods.client, pods.server),
            "other→server": await reaches(family().pods[0], pods.server),
            "client→open": await reaches(pods.client, pods.open),
        });
        /** Waits, bounded, until the pods reach each other as `want` says. */
        const awaitReach = async (want: Reach, what: string) => {
            const seen = await pollUntil(
                async () => {
                    const now = await reachNow();
                    if (JSON.stringify(now) !== JSON.stringify(want)) throw new Error(`seen ${JSON.stringify(now)}`);
                    return now;
                },
                { timeoutMs: 60_000, intervalMs: 1000, what },
            );
            assert.deepEqual(seen, want);
        };
        const withPolicy = async (policy: KubeObject, want: Reach, what: string) => {
            await lab().admin.create(policy);
            await awaitReach(want, what);
            const ref = {
                apiVersion: policy.apiVersion,
                kind: policy.kind,
                name: policy.metadata.name!,
                namespace: policy.metadata.namespace,
            };
            await lab().admin.delete(ref);
            await lab().admin.waitUntilGone(ref, 60_000);
        };

        before(async () => {
            await phase("admin network policy workloads", async () => {
                for (const ns of Object.values(NS))
                    await lab().admin.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
                const started = await Promise.all(
                    Object.values(NS).map((namespace) =>
                        startDemoDeployment(lab().admin, lab().cluster, {
                            name: "probe",
                            namespace,
                            replicas: 1,
                            command: ["sleep", "infinity"],
                        }),
                    ),
                );
                [pods.server, pods.open, pods.client] = started.map(([pod]) => pod);
            });
            // Only the client is admitted to anp-server; anp-open has no NetworkPolicy.
            await lab().admin.create({
                apiVersion: "networking.k8s.io/v1",
                kind: "NetworkPolicy",
                metadata: { name: NETPOL_NAME, namespace: NS.server },
                spec: {
                    podSelector: {},
                    policyTypes: ["Ingress"],
                    ingress: [{ from: [{ namespaceSelector: byName(NS.client).namespaces }] }],
                },
            });
            await awaitReach(
                { "client→server": true, "other→server": false, "client→open": true },
                "the NetworkPolicy to admit the client only",
            );
        });

        test("an AdminNetworkPolicy Deny wins over a NetworkPolicy Allow, and the Allow holds again once it is deleted", async () => {
            await withPolicy(
                {
                    apiVersion: POLICY_API,
                    kind: "AdminNetworkPolicy",
                    metadata: { name: ANP_NAME },
                    spec: {
                        priority: 10,
                        subject: byName(NS.server),
                        ingress: [{ name: "deny-client", action: "Deny", from: [byName(NS.client)] }],
                    },
                },
                { "client→server": false, "other→server": false, "client→open": true },
                "the AdminNetworkPolicy to deny the client that the NetworkPolicy admits",
            );
            await awaitReach(
                { "client→server": true, "other→server": false, "client→open": true },
                "the NetworkPolicy's Allow without the AdminNetworkPolicy",
            );
        });

        test("a BaselineAdminNetworkPolicy Deny holds only where no NetworkPolicy allows", async () => {
            await withPolicy(
                {
                    apiVersion: POLICY_API,
                    kind: "BaselineAdminNetworkPolicy",
                    metadata: { name: BASELINE_NAME },
                    spec: {
                        subject: {
                            namespaces: { matchExpressions: [{ key: NAMESPACE_NAME_LABEL, operator: "In", values: [NS.server, NS.open] }] },
                        },
                        ingress: [{ name: "deny-client", action: "Deny", from: [byName(NS.client)] }],
                    },
                },
                { "client→server": true, "other→server": false, "client→open": false },
                "the BaselineAdminNetworkPolicy to deny the client in anp-open only",
            );
            await awaitReach(
                { "client→server": true, "other→server": false, "client→open": true },
                "anp-open open again without the baseline",
            );
        });
    });
}
