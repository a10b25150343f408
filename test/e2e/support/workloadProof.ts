// What every ovnkube-mode architecture must show with real workloads: a Deployment's pods, placed by
// the scheduler, get their node's planned addresses through ovnkube's CNI path (its annotation and
// the address on eth0); every pod and host reaches every pod and every node's management port; TCP
// between pods keeps the client's address; a Service answers at its ClusterIP from a pod and at its
// NodePort on every node's address from the outside; and the outside sees the client's node address (SNAT),
// in the gateway mode the plan names.
import assert from "node:assert/strict";
import { containsIp, parseNetwork } from "../../../components/values";
import type { ClusterModel } from "../../../components/model/types";
import { hostExec, ping, type PodRef } from "../../../lab/localcluster";
import { CLUSTER_ROUTER } from "../../../components/model/names";
import { awaitChassisCaughtUp, awaitTunnelMesh, formatCaughtUp, formatTunnelMesh } from "../../../lab/localcluster/overlayReadiness";
import { formatMatrix, pingMatrix, tcpAnswer, tcpExchange } from "../../../lab/localcluster/checks";
import {
    createNodePortService,
    kubePodExec,
    podRef,
    removeDemoWorkloads,
    startDemoDeployment,
    startDemoPod,
    type KubePod,
} from "../../../lab/localcluster/kubeWorkloads";
import { pollUntil } from "../../../lab/kubeclient";
import type { OvnkubeLab } from "../../../lab/scenarios/ovnkubeLab";

const SERVER_PORT = 8080;
const GREETING = "hello from the server pod";

export interface WorkloadNames {
    /** The Deployment with one pod per node that runs pods. */
    spread: string;
    /** The Deployment (and Service) of the one server pod. */
    server: string;
}

/**
 * Every pod got an address of each of its node's planned subnets (one per family), from ovnkube
 * (annotation) through its CNI shim (eth0).
 */
export async function assertPlannedAddresses(lab: OvnkubeLab, model: ClusterModel, pods: readonly KubePod[]): Promise<void> {
    for (const pod of pods) {
        const subnets = model.kube.nodes.find((n) => n.name === pod.node)!.subnets;
        assert.equal(pod.ips.length, subnets.length, `${pod.name} got ${pod.ips.join(", ")} for planned ${subnets.join(", ")}`);
        for (const [i, subnet] of subnets.entries())
            assert.ok(
                containsIp(parseNetwork(subnet), pod.ips[i]),
                `${pod.name} got ${pod.ips[i]}, outside ${pod.node}'s planned ${subnet}`,
            );
        const annotation = JSON.parse(
            (await lab.admin.get({ apiVersion: "v1", kind: "Pod", namespace: pod.namespace, name: pod.name })).metadata.annotations?.[
                "k8s.ovn.org/pod-networks"
            ] ?? "{}",
        );
        assert.deepEqual(
            annotation.default?.ip_addresses,
            pod.ips.map((ip, i) => `${ip}/${parseNetwork(subnets[i]).prefix}`),
        );
        const eth0 = (await kubePodExec(pod, ["ip", "-o", "addr", "show", "dev", "eth0"])).stdout;
        for (const ip of pod.ips) assert.ok(eth0.includes(` ${ip}/`), `${pod.name}'s eth0 lacks ${ip}: ${eth0}`);
    }
}

/** Every pod reaches every other (one probe each way per pair, bounded). */
export async function assertPodsPing(lab: OvnkubeLab, pods: readonly KubePod[]): Promise<void> {
    const matrix = await pingMatrix(
        lab.cluster,
        pods.map((p) => ({ label: p.name, from: podRef(p) as string | PodRef })),
        pods.map((p) => ({ label: p.name, ip: p.ip })),
    );
    assert.ok(matrix.allOk, "\n" + formatMatrix(matrix));
}

/**
 * Returns once pods on a node that has just joined reach the others both ways: every chassis has
 * applied its Northbound and holds a tunnel to every other (localcluster/overlayReadiness), then a
 * few pings a pair, bounded. ovnkube programs the other zones' routes to a new zone after its own
 * restart, so the first probe must not meet that.
 */
export async function awaitPodsReach(lab: OvnkubeLab, model: ClusterModel, pods: readonly KubePod[]): Promise<void> {
    const caughtUp = await awaitChassisCaughtUp(lab.cluster, model);
    assert.ok(caughtUp.ok, formatCaughtUp(caughtUp));
    const mesh = await awaitTunnelMesh(lab.cluster, model);
    assert.ok(mesh.complete, formatTunnelMesh(mesh));
    for (const a of pods)
        for (const b of pods.filter((p) => p !== a))
            await pollUntil(async () => (await ping(lab.cluster, podRef(a), b.ip)) || undefined, {
                timeoutMs: 45_000,
                intervalMs: 500,
                what: `${a.name} to reach ${b.name} (${b.ip})`,
            }).catch(async (e) => {
                throw new Error(`${(e as Error).message}\n${await clusterRoutes(lab, model)}`);
            });
}

/** One pod on each of `nodes` (a node that has just joined among them): planned addresses, and they reach each other; the pods go whatever the outcome. */
export async function proveJoinedNode(lab: OvnkubeLab, model: ClusterModel, nodes: readonly string[]): Promise<void> {
    const fresh = await Promise.all(
        nodes.map((node, i) => startDemoPod(lab.admin, lab.cluster, { name: `joined-${i}`, node, command: ["sleep", "infinity"] })),
    );
    try {
        await assertPlannedAddresses(lab, model, fresh);
        await awaitPodsReach(lab, model, fresh);
        await assertPodsPing(lab, fresh);
    } finally {
        await removeDemoWorkloads(lab.admin, lab.cluster, fresh, []);
    }
}

/** The cluster router's routes in every NB (each zone's, or the central's): what a failed reach is read against. */
async function clusterRoutes(lab: OvnkubeLab, model: ClusterModel): Promise<string> {
    const hosts = model.hosts.filter((h) => h.zone || h.isCentral).map((h) => h.name);
    const routes = await Promise.all(
        hosts.map((h) => hostExec(lab.cluster, h, ["ovn-nbctl", "--no-leader-only", "--timeout=10", "lr-route-list", CLUSTER_ROUTER])),
    );
    return hosts.map((h, i) => `${h}'s ${CLUSTER_ROUTER} routes:\n${routes[i].stdout || routes[i].stderr}`).join("\n");
}

/** ovnkube-node's masquerade chain for local gateway mode (facts §13.5): on every node in local mode, on none in shared. */
const LOCAL_GATEWAY_CHAIN = ["inet", "ovn-kubernetes", "ovn-kube-local-gw-masq"];

/** Every node's host runs the gateway mode the plan names: local mode's masquerade chain is there exactly then. */
export async function assertGatewayMode(lab: OvnkubeLab, model: ClusterModel, nodes: readonly string[]): Promise<void> {
    const local = model.kube.gatewayMode === "local";
    for (const node of nodes) {
        const r = await hostExec(lab.cluster, node, ["nft", "list", "chain", ...LOCAL_GATEWAY_CHAIN]);
        assert.equal(
            r.code === 0,
            local,
            `${node}: chain ${LOCAL_GATEWAY_CHAIN.join(" ")} ${local ? "missing" : "present"} in ${model.kube.gatewayMode} gateway mode: ${r.stderr.trim()}`,
        );
    }
}

/** Starts the spread and server Deployments on `nodes` and proves their network; returns [spread pods..., server]. */
export async function proveWorkloads(
    lab: OvnkubeLab,
    model: ClusterModel,
    names: WorkloadNames,
    nodes: readonly string[],
): Promise<KubePod[]> {
    const spread = await startDemoDeployment(lab.admin, lab.cluster, {
        name: names.spread,
        replicas: nodes.length,
        command: ["sleep", "infinity"],
    });
    assert.deepEqual(
        spread.map((p) => p.node),
        [...nodes],
        "the scheduler put one pod on every node that runs pods",
    );
    const [server] = await startDemoDeployment(lab.admin, lab.cluster, {
        name: names.server,
        replicas: 1,
        // busybox's nc (the lab's workload image) closes once its input ends.
        command: ["/bin/sh", "-c", `while true; do echo "$0" | busybox nc -l -p ${SERVER_PORT}; done`, GREETING],
    });
    const pods = [...spread, server];
    const client = spread.find((p) => p.node !== server.node)!;
    await assertPlannedAddresses(lab, model, pods);

    // Every pod and every host reaches every pod and every node's management port (ovnkube-node's
    // ovn-k8s-mp0, at the planned .2), across nodes over Geneve.
    const matrix = await pingMatrix(
        lab.cluster,
        [
            ...pods.map((p) => ({ label: p.name, from: podRef(p) as string | PodRef })),
            ...lab.cluster.hosts.map((h) => ({ label: h.name, from: h.name })),
        ],
        [...pods.map((p) => ({ label: p.name, ip: p.ip })), ...model.nodeNetworks.map((n) => ({ label: `${n.node} mgmt`, ip: n.mgmt.ip }))],
    );
    assert.ok(matrix.allOk, "\n" + formatMatrix(matrix));
    const direct = await tcpExchange(lab.cluster, { pod: podRef(server) }, server.ip, { pod: podRef(client) });
    assert.deepEqual(direct, { ok: true, seenSource: client.ip }, "TCP pod → pod on another node keeps the client's address");

    const { clusterIp, nodePort } = await createNodePortService(lab.admin, {
        name: names.server,
        selector: { app: names.server },
        port: 80,
        targetPort: SERVER_PORT,
    });
    assert.ok(containsIp(parseNetwork(model.serviceSubnets[0]), clusterIp), `ClusterIP ${clusterIp} outside ${model.serviceSubnets[0]}`);
    // ovnkube adds the Service's load balancer asynchronously.
    const answer = await pollUntil(
        async () => {
            const r = await kubePodExec(client, ["nc", "-w", "2", clusterIp, "80"], { timeoutMs: 10_000 });
            if (r.stdout.trim() !== GREETING)
                throw new Error(`exit ${r.code}, answer ${JSON.stringify(r.stdout.trim())} ${r.stderr.trim()}`);
            return r.stdout.trim();
        },
        { timeoutMs: 30_000, intervalMs: 500, what: `the server pod's answer through ClusterIP ${clusterIp}:80` },
    );
    assert.equal(answer, GREETING);
    // From the outside at every node's address, the server's node and the others (north-south).
    for (const node of model.kube.nodes.filter((n) => nodes.includes(n.name))) {
        const viaNode = await tcpAnswer(lab.cluster, { external: true }, node.gatewayIps[0], nodePort);
        assert.deepEqual(
            viaNode,
            { ok: true, answer: GREETING },
            `NodePort ${node.gatewayIps[0]}:${nodePort} (${node.name}) from the outside`,
        );
    }

    await assertGatewayMode(lab, model, nodes);
    const gatewayIp = model.kube.nodes.find((n) => n.name === client.node)!.gatewayIps[0];
    const snat = await tcpExchange(lab.cluster, { external: true }, lab.cluster.external.ip, { pod: podRef(client) });
    assert.deepEqual(snat, { ok: true, seenSource: gatewayIp }, `the outside sees ${client.node}'s address`);
    return pods;
}
