// Pods placed on a cluster model's node switches, as ovnkube would place them: the logical switch
// port `<namespace>_<pod>` on the node's switch with "MAC IP" (what ovnkube writes after OVN
// IPAM), then the CNI ADD wiring of ./pods. Lets the overlay be exercised without Kubernetes.
import { addressAt, macFromIp, parseNetwork } from "@ovn-kubernetes-as-code/cluster/values";
import type { ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { hostExec } from "./exec";
import { addPod, removePod, type LocalPod } from "./pods";
import type { RunResult } from "./run";
import type { LocalCluster } from "./state";

function succeed(r: RunResult, what: string): void {
    if (r.code !== 0) throw new Error(`${what}: exit ${r.code}: ${r.stderr.trim()}`);
}

function placement(model: ClusterModel, node: string) {
    const network = model.nodeNetworks.find((n) => n.node === node);
    if (!network) throw new Error(`node ${JSON.stringify(node)} has no logical switch in this stack`);
    const central = model.hosts.find((h) => h.isCentral)!.name;
    // A clustered NB member forwards writes to its leader: any member will do.
    return { network, central };
}

/**
 * Starts a pod at the `index`-th address of the node's subnet (.1 and .2 are the router and
 * management port), on the node's host or on `host`: a port of one logical switch may sit on any
 * chassis, and OVN carries its traffic through a tunnel to that chassis.
 */
export async function startPod(
    cluster: LocalCluster,
    model: ClusterModel,
    node: string,
    namespace: string,
    pod: string,
    index: number,
    host = node,
): Promise<LocalPod> {
    const { network, central } = placement(model, node);
    const subnet = parseNetwork(network.subnet);
    if (!Number.isInteger(index) || index < 3 || index >= 2 ** (32 - subnet.prefix) - 1)
        throw new Error(`pod index ${index} is outside ${network.subnet}`);
    const ip = addressAt(subnet, index);
    const mac = macFromIp(ip);
    const port = `${namespace}_${pod}`;
    succeed(
        await hostExec(cluster, central, [
            "ovn-nbctl",
            "--no-leader-only",
            "--may-exist",
            "lsp-add",
            network.switchName,
            port,
            "--",
            "lsp-set-addresses",
            port,
            `${mac} ${ip}`,
        ]),
        `adding logical switch port ${port}`,
    );
    return addPod(cluster, host, namespace, pod, { ip, mac, gatewayIp: network.router.ip, prefixLen: subnet.prefix, mtu: model.mtu });
}

/** Stops a pod running on `node`'s host, whichever switch its port is on. */
export async function stopPod(cluster: LocalCluster, model: ClusterModel, node: string, namespace: string, pod: string): Promise<void> {
    const { central } = placement(model, node);
    await removePod(cluster, node, namespace, pod);
    succeed(
        await hostExec(cluster, central, ["ovn-nbctl", "--no-leader-only", "--if-exists", "lsp-del", `${namespace}_${pod}`]),
        `removing logical switch port ${namespace}_${pod}`,
    );
}
