// The ovnkube command lines, the same flags as the seeds' manual runs (`ovnkube -init-master <node>`
// / `-init-node <node>` with -nb-address, -sb-address, -k8s-apiserver, -cluster-subnet,
// -service-cluster-ip-range). ovnkube is run directly, not through the image's ovnkube.sh, whose
// environment contract changed between releases; the flags below are accepted by every release
// that has -k8s-token-file.
//
// Values come from the environment with Kubernetes' own `$(VAR)` expansion, which the kubelet does
// before exec: they reach ovnkube as single arguments and never pass through a shell.
import type { KubeModel } from "../model/types";
import { configEnv, hasConfigEnv } from "./config-map";
import { OVN_CLIENT_SSL } from "./host-paths";
import type { EnvVar } from "./types";

/** Where the kubelet mounts the pod's service-account token and the cluster CA. */
export const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";
/** Set from the pod's spec.nodeName: ovnkube's identity, and its name for the node's logical switch. */
export const NODE_NAME_ENV = "K8S_NODE";
export const OVNKUBE = "/usr/bin/ovnkube";

function commonArgs(model: KubeModel): string[] {
    const args = [
        "-nb-address", "$(OVN_NORTH)",
        "-sb-address", "$(OVN_SOUTH)",
        "-k8s-apiserver", "$(K8S_APISERVER)",
        // The token is read from the projected file and re-read as the kubelet rotates it, so it
        // appears neither in the ConfigMap nor on a command line visible through the host's /proc.
        "-k8s-token-file", `${SERVICE_ACCOUNT_DIR}/token`,
        "-cluster-subnet", clusterSubnet(model),
        "-service-cluster-ip-range", "$(OVN_SVC_CIDR)",
        // Where the masters keep their leader-election lock: the namespace the Role is granted in.
        "-ovn-config-namespace", model.namespace,
    ];
    if (model.secureApi) args.push("-k8s-cacert", `${SERVICE_ACCOUNT_DIR}/ca.crt`);
    if (model.config.OvnNorth.startsWith("ssl:")) args.push(...sslArgs("nb"));
    if (model.config.OvnSouth.startsWith("ssl:")) args.push(...sslArgs("sb"));
    if (hasConfigEnv(model, "MTU")) args.push("-mtu", "$(MTU)");
    // Otherwise ovnkube-node would set ovn-encap-type to its default (geneve) over the host layer's.
    if (hasConfigEnv(model, "OVN_ENCAP_TYPE")) args.push("-encap-type", "$(OVN_ENCAP_TYPE)");
    return args;
}

/** True when ovnkube talks SSL to NB or SB and so needs the host's OVN client files. */
export function usesOvnSsl(model: KubeModel): boolean {
    return model.config.OvnNorth.startsWith("ssl:") || model.config.OvnSouth.startsWith("ssl:");
}

function sslArgs(db: "nb" | "sb"): string[] {
    return [
        `-${db}-client-privkey`, OVN_CLIENT_SSL.privateKey,
        `-${db}-client-cert`, OVN_CLIENT_SSL.certificate,
        `-${db}-client-cacert`, OVN_CLIENT_SSL.caCertificate,
    ];
}

/**
 * `<cidr>/<host subnet length>` when the model gives a length: without it ovnkube cuts /24 node
 * subnets, which would disagree with the switches the NB layer declares.
 */
function clusterSubnet(model: KubeModel): string {
    return hasConfigEnv(model, "OVN_HOST_SUBNET_LENGTH") ? "$(OVN_NET_CIDR)/$(OVN_HOST_SUBNET_LENGTH)" : "$(OVN_NET_CIDR)";
}

/** Master only: the node side on master hosts comes from ovnkube-node, which runs everywhere. */
export function masterArgs(model: KubeModel): string[] {
    return ["-init-master", `$(${NODE_NAME_ENV})`, ...commonArgs(model)];
}

/**
 * No -init-gateways: the gateway routers and the host side of gateways are declared by the gateway
 * component, and a second owner would fight over them.
 */
export function nodeArgs(model: KubeModel): string[] {
    return ["-init-node", `$(${NODE_NAME_ENV})`, ...commonArgs(model)];
}

/** The variables the arguments above expand: the node name, then every ovn-config key present. */
export function ovnkubeEnv(model: KubeModel): EnvVar[] {
    return [{ name: NODE_NAME_ENV, valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } }, ...configEnv(model)];
}
