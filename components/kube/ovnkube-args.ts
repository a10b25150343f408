// The ovnkube v1.0.0 command lines: the flags upstream's ovnkube.sh passes where they matter for a
// non-interconnect cluster on the project's hosts, run directly rather than through ovnkube.sh.
// Without the script there is no `-bootstrap-kubeconfig`: ovnkube-identity mode (per-node client
// certificates, upstream's default) is off by construction, and both roles authenticate as the
// service account.
//
// Values come from the environment with Kubernetes' own `$(VAR)` expansion, which the kubelet does
// before exec: they reach ovnkube as single arguments and never pass through a shell. Values that
// are per DaemonSet (the node group's gateway) are literal arguments.
import type { KubeModel, OvnkubeNodeGroup } from "../model/types";
import { configEnv, hasConfigEnv } from "./config-map";
import { OVN_CLIENT_SSL, OVNKUBE_LOG } from "./host-paths";
import { HOST_NETWORK_NAMESPACE } from "./names";
import type { EnvVar } from "./types";

/** Where the kubelet mounts the pod's service-account token and the cluster CA. */
export const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";
/** Set from the pod's spec.nodeName: ovnkube's identity, and its name for the node's logical switch. */
export const NODE_NAME_ENV = "K8S_NODE";
/** Set from the pod's status.hostIP, the Node's InternalIP: the node's tunnel endpoint. */
export const NODE_IP_ENV = "K8S_NODE_IP";
export const OVNKUBE = "/usr/bin/ovnkube";
/** Upstream's log files, in the directory shared with the host. */
export const MASTER_LOG = `${OVNKUBE_LOG.mountPath}/ovnkube-master.log`;
export const NODE_LOG = `${OVNKUBE_LOG.mountPath}/ovnkube.log`;
/** The only gateway mode the project plans for: the node's NIC on an OVS bridge shared with the host. */
export const GATEWAY_MODE = "shared";

/** Databases and API server, the same for both roles. */
function connectionArgs(model: KubeModel): string[] {
    const args = [
        "-nb-address", "$(OVN_NORTH)",
        "-sb-address", "$(OVN_SOUTH)",
        "-k8s-apiserver", "$(K8S_APISERVER)",
        // The token is read from the projected file and re-read as the kubelet rotates it, so it
        // appears neither in the ConfigMap nor on a command line visible through the host's /proc.
        "-k8s-token-file", `${SERVICE_ACCOUNT_DIR}/token`,
    ];
    if (model.secureApi) args.push("-k8s-cacert", `${SERVICE_ACCOUNT_DIR}/ca.crt`);
    if (model.config.OvnNorth.startsWith("ssl:")) args.push(...sslArgs("nb", model.config.OvnNorth));
    if (model.config.OvnSouth.startsWith("ssl:")) args.push(...sslArgs("sb", model.config.OvnSouth));
    return args;
}

/**
 * What master and node must agree on: the pod and service networks, the join network and the
 * gateway mode. Without `-gateway-mode` the master disables gateways and deletes gateway routers,
 * so it is passed to both. `-mtu` also goes to the master (upstream gives it none): the master
 * writes it as the gateway routers' `gateway_mtu`, which must match the pods' MTU.
 */
function clusterArgs(model: KubeModel): string[] {
    const args = [
        "-cluster-subnets", clusterSubnets(model),
        "-k8s-service-cidrs", "$(OVN_SVC_CIDR)",
        "-gateway-mode", GATEWAY_MODE,
        "-gateway-v4-join-subnet", model.joinSubnet,
        // Where the masters keep their leader-election Lease: the namespace the Role is granted in.
        "-ovn-config-namespace", model.namespace,
    ];
    if (hasConfigEnv(model, "MTU")) args.push("-mtu", "$(MTU)");
    return args;
}

/** True when ovnkube talks SSL to NB or SB and so needs the host's OVN client files. */
export function usesOvnSsl(model: KubeModel): boolean {
    return model.config.OvnNorth.startsWith("ssl:") || model.config.OvnSouth.startsWith("ssl:");
}

/**
 * ovnkube v1.0.0 refuses an ssl: database without `-<db>-cert-common-name`: the name it verifies
 * the server's certificate against. That is the address it dials, so the central's certificate
 * must carry that address (an IP SAN for an IP address).
 */
function sslArgs(db: "nb" | "sb", remote: string): string[] {
    return [
        `-${db}-client-privkey`, OVN_CLIENT_SSL.privateKey,
        `-${db}-client-cert`, OVN_CLIENT_SSL.certificate,
        `-${db}-client-cacert`, OVN_CLIENT_SSL.caCertificate,
        `-${db}-cert-common-name`, remoteHost(remote),
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
 * The master (cluster manager and network controller in one process). Its node side comes from
 * ovnkube-node, which runs on master hosts too. Service templates are on, as upstream enables
 * them: NodePort load balancers become one template per service instead of one per node. The
 * host-network namespace is the master's alone to use (it fills that namespace's address set).
 */
export function masterArgs(model: KubeModel): string[] {
    return [
        "-init-master", `$(${NODE_NAME_ENV})`,
        ...connectionArgs(model),
        ...clusterArgs(model),
        "-enable-svc-template-support",
        "-host-network-namespace", HOST_NETWORK_NAMESPACE,
        "-logfile", MASTER_LOG,
    ];
}

/**
 * The node of one group. `-encap-ip` is the Node's InternalIP, so ovnkube-node's rewrite of the
 * host's ovn-encap-ip keeps the planned tunnel address (the kubelet's `--node-ip`); without
 * `-encap-type` it would set its default (geneve) over the host layer's. `-gateway-interface` is the
 * OVS bridge the host layer set up; without it ovnkube-node bridges the NIC of the default route.
 */
export function nodeArgs(model: KubeModel, group: OvnkubeNodeGroup): string[] {
    const args = [
        "-init-node", `$(${NODE_NAME_ENV})`,
        ...connectionArgs(model),
        ...clusterArgs(model),
        "-nodeport",
        "-encap-ip", `$(${NODE_IP_ENV})`,
    ];
    if (hasConfigEnv(model, "OVN_ENCAP_TYPE")) args.push("-encap-type", "$(OVN_ENCAP_TYPE)");
    if (group.gatewayInterface) args.push("-gateway-interface", group.gatewayInterface);
    if (group.gatewayNexthop) args.push("-gateway-nexthop", group.gatewayNexthop);
    args.push("-logfile", NODE_LOG);
    return args;
}

const fieldEnv = (name: string, fieldPath: string): EnvVar => ({ name, valueFrom: { fieldRef: { fieldPath } } });

/** The variables the master's arguments expand: its node name, then every ovn-config key present. */
export function masterEnv(model: KubeModel): EnvVar[] {
    return [fieldEnv(NODE_NAME_ENV, "spec.nodeName"), ...configEnv(model)];
}

/** The node's: also the Node's InternalIP (a hostNetwork pod's hostIP). */
export function nodeEnv(model: KubeModel): EnvVar[] {
    return [fieldEnv(NODE_NAME_ENV, "spec.nodeName"), fieldEnv(NODE_IP_ENV, "status.hostIP"), ...configEnv(model)];
}
