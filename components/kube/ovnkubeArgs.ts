// The ovnkube command lines of ovn-kubernetes 1.2 and 1.3: the flags upstream's ovnkube.sh passes
// where they matter for the project's hosts (docs/facts/ovnkube-1.3.md §3), run directly rather
// than through ovnkube.sh. The optional features' flags go to the processes ovnkube.sh gives them
// (./features, docs/facts/ovnkube-1.3.md §13).
//
// Credentials: none on the command line. ovnkube reads the pod's service-account token and CA from
// the kubelet's mount by itself (go-controller/pkg/config/config.go:2024-2029) and re-reads the
// token as the kubelet rotates it. Passing `-k8s-token-file` would clear that token (config.go:1983-
// 2000), and ovnkube-node refuses to start without one (cmd/ovnkube/ovnkube.go:572-574).
//
// Values come from the environment with Kubernetes' own `$(VAR)` expansion, which the kubelet does
// before exec: they reach ovnkube as single arguments and never pass through a shell. Values that
// are per DaemonSet (the node group's gateway) are literal arguments.
import type { KubeModel, OvnkubeNodeGroup } from "../model/types";
import { configEnv, hasConfigEnv } from "./configMap";
import { NODE_CERT_DIR, OVN_CLIENT_SSL, OVNKUBE_LOG } from "./hostPaths";
import { HOST_NETWORK_NAMESPACE } from "./objectNames";
import type { EnvVar } from "./objectTypes";
import { featureFlags, type OvnkubeProcess } from "../config/features";

/** Set from the pod's spec.nodeName: ovnkube's identity, its node's switch and (interconnect) its zone. */
export const NODE_NAME_ENV = "K8S_NODE";
/** Set from the pod's status.hostIP, the Node's InternalIP: the node's tunnel endpoint. */
export const NODE_IP_ENV = "K8S_NODE_IP";
export const OVNKUBE = "/usr/bin/ovnkube";
/** Upstream's log files, in the directory shared with the host. */
export const MASTER_LOG = `${OVNKUBE_LOG.mountPath}/ovnkube-master.log`;
export const CLUSTER_MANAGER_LOG = `${OVNKUBE_LOG.mountPath}/ovnkube-cluster-manager.log`;
export const NODE_LOG = `${OVNKUBE_LOG.mountPath}/ovnkube.log`;
const node = `$(${NODE_NAME_ENV})`;
const interconnect = (model: KubeModel) => model.architecture === "interconnect";

/**
 * Databases: the central's with the centralized architecture; with interconnect none, so that
 * ovnkube uses the zone's own unix sockets (its default, as ovnkube.sh with OVN_NORTH=local).
 */
function databaseArgs(model: KubeModel): string[] {
    if (interconnect(model)) return [];
    const args = ["-nb-address", "$(OVN_NORTH)", "-sb-address", "$(OVN_SOUTH)"];
    if (model.config.OvnNorth.startsWith("ssl:")) args.push(...sslArgs("nb", model.config.OvnNorth));
    if (model.config.OvnSouth.startsWith("ssl:")) args.push(...sslArgs("sb", model.config.OvnSouth));
    return args;
}

/**
 * What every role must agree on: the pod and service networks, the join, masquerade and (with
 * interconnect) transit networks, and the gateway mode. Without `-gateway-mode` the controller
 * disables gateways and deletes gateway routers, so it goes to every role. `-mtu` too: the
 * controller writes it as the gateway routers' `gateway_mtu`, which must match the pods' MTU.
 */
function clusterArgs(model: KubeModel): string[] {
    const args = [
        "-k8s-apiserver",
        "$(K8S_APISERVER)",
        "-cluster-subnets",
        clusterSubnets(model),
        "-k8s-service-cidrs",
        "$(OVN_SVC_CIDR)",
        "-gateway-mode",
        model.gatewayMode,
        ...familyArgs(model, "-gateway-%s-join-subnet", model.joinSubnets),
        ...familyArgs(model, "-gateway-%s-masquerade-subnet", model.masqueradeSubnets),
        // Where the leader-election Lease lives: the namespace the Role is granted in.
        "-ovn-config-namespace",
        model.namespace,
        "-host-network-namespace",
        HOST_NETWORK_NAMESPACE,
    ];
    if (interconnect(model))
        args.push("-enable-interconnect", ...familyArgs(model, "-cluster-manager-%s-transit-subnet", model.transitSubnets));
    if (hasConfigEnv(model, "MTU")) args.push("-mtu", "$(MTU)");
    return args;
}

/** One flag per family of the cluster (`%s`: v4 or v6) with that family's range. */
function familyArgs(model: KubeModel, flag: string, ranges: readonly string[]): string[] {
    return model.ipFamilies.flatMap((f, k) => [flag.replace("%s", f === "ipv4" ? "v4" : "v6"), ranges[k]]);
}

/** True when ovnkube talks SSL to NB or SB and so needs the host's OVN client files. */
export function usesOvnSsl(model: KubeModel): boolean {
    return !interconnect(model) && (model.config.OvnNorth.startsWith("ssl:") || model.config.OvnSouth.startsWith("ssl:"));
}

/**
 * ovnkube refuses an ssl: database without `-<db>-cert-common-name`: the name it verifies the
 * server's certificate against. That is the address it dials, so the central's certificate must
 * carry that address (an IP SAN for an IP address).
 */
function sslArgs(db: "nb" | "sb", remote: string): string[] {
    return [
        `-${db}-client-privkey`,
        OVN_CLIENT_SSL.privateKey,
        `-${db}-client-cert`,
        OVN_CLIENT_SSL.certificate,
        `-${db}-client-cacert`,
        OVN_CLIENT_SSL.caCertificate,
        `-${db}-cert-common-name`,
        remoteHost(remote),
    ];
}

/** `ssl:10.0.0.5:6641` → `10.0.0.5`; the first remote of a list; IPv6 brackets removed. */
export function remoteHost(remote: string): string {
    const first = remote.split(",")[0];
    const hostPort = first.slice(first.indexOf(":") + 1);
    return hostPort.slice(0, hostPort.lastIndexOf(":")).replace(/^\[(.*)\]$/, "$1");
}

/**
 * `<cidr>/<host subnet length>`: ovnkube's only way to be told the node subnet size. Without a
 * length it cuts /24 node subnets, which would disagree with the planned ones.
 */
function clusterSubnets(model: KubeModel): string {
    return hasConfigEnv(model, "OVN_HOST_SUBNET_LENGTH") ? "$(OVN_NET_CIDR)/$(OVN_HOST_SUBNET_LENGTH)" : "$(OVN_NET_CIDR)";
}

/**
 * Interconnect's cluster manager (ovnkube.sh `ovn-cluster-manager`): node subnets, node-ids and
 * transit addresses for every node, and nothing in any database.
 */
export function clusterManagerArgs(model: KubeModel): string[] {
    return ["-init-cluster-manager", node, ...clusterArgs(model), ...features(model, "clusterManager"), "-logfile", CLUSTER_MANAGER_LOG];
}

const features = (model: KubeModel, process: OvnkubeProcess) => featureFlags(model.features, model.egressIpHealthCheckPort, process);

/**
 * The centralized master (ovnkube.sh `ovn-master`): cluster manager and network controller in one
 * process, writing the central's NB.
 */
export function masterArgs(model: KubeModel): string[] {
    return ["-init-master", node, ...databaseArgs(model), ...clusterArgs(model), ...features(model, "master"), "-logfile", MASTER_LOG];
}

/**
 * The node of one group. With interconnect it also runs the zone's network controller (ovnkube.sh
 * `ovnkube-controller-with-node`), which writes the zone's own NB. `-encap-ip` is the Node's
 * InternalIP, so ovnkube-node's rewrite of the host's ovn-encap-ip keeps the planned tunnel address
 * (the kubelet's `--node-ip`); without `-encap-type` it would set its default (geneve) over the host
 * layer's. `-gateway-interface` is the OVS bridge the host layer set up; without it ovnkube-node
 * bridges the NIC of the default route itself, as a kernel-datapath bridge.
 */
export function nodeArgs(model: KubeModel, group: OvnkubeNodeGroup): string[] {
    const roles = interconnect(model) ? ["-init-ovnkube-controller", node, "-init-node", node, "-zone", node] : ["-init-node", node];
    const process: OvnkubeProcess = interconnect(model) ? "controller" : "node";
    const args = [
        ...roles,
        ...databaseArgs(model),
        ...clusterArgs(model),
        ...features(model, process),
        "-nodeport",
        "-encap-ip",
        `$(${NODE_IP_ENV})`,
    ];
    if (hasConfigEnv(model, "OVN_ENCAP_TYPE")) args.push("-encap-type", "$(OVN_ENCAP_TYPE)");
    if (group.gatewayInterface) args.push("-gateway-interface", group.gatewayInterface);
    if (group.gatewayNexthop) args.push("-gateway-nexthop", group.gatewayNexthop);
    // Its own certificate (system:ovn-node:<node>), requested with the kubelet's credentials.
    if (model.identity) args.push("-bootstrap-kubeconfig", model.identity.bootstrapKubeconfig, "-cert-dir", NODE_CERT_DIR);
    args.push("-logfile", NODE_LOG);
    return args;
}

/** A variable from the pod's own fields (its node's name, the node's address). */
export const fieldEnv = (name: string, fieldPath: string): EnvVar => ({ name, valueFrom: { fieldRef: { fieldPath } } });

/** The variables of the cluster manager's or master's arguments: its node name, then every ovn-config key present. */
export function masterEnv(model: KubeModel): EnvVar[] {
    return [fieldEnv(NODE_NAME_ENV, "spec.nodeName"), ...configEnv(model)];
}

/** The node's: also the Node's InternalIP (a hostNetwork pod's hostIP). */
export function nodeEnv(model: KubeModel): EnvVar[] {
    return [fieldEnv(NODE_NAME_ENV, "spec.nodeName"), fieldEnv(NODE_IP_ENV, "status.hostIP"), ...configEnv(model)];
}
