// Where a local cluster's Kubernetes control plane lives: its network namespace and veth (named
// with the cluster's `lc-<id>-` prefix, so the cluster's `down` ends and removes them too), its
// underlay address and its files under .local/<id>/k8s. Pure: no I/O.
import * as path from "node:path";
import { hostInUrl } from "../ipFamily";
import { clusterNames, stateDir } from "../names";

/** The API server's secure port, as on a kubeadm control plane. */
export const API_SERVER_PORT = 6443;

/** Inside the control plane's own namespace, etcd is reached on loopback only. */
export const ETCD_CLIENT_URL = "http://127.0.0.1:2379";
export const ETCD_PEER_URL = "http://127.0.0.1:2380";

export interface ControlPlaneLayout {
    /** Network namespace of etcd and the control plane, also the name of its root-side veth. */
    netns: string;
    veth: string;
    /** .local/<id>/k8s: logs, etcd data, PKI, kubeconfigs, state. */
    dir: string;
    pkiDir: string;
    etcdDataDir: string;
    stateFile: string;
    adminKubeconfig: string;
    kubeconfig(user: string): string;
    log(component: string): string;
}

export function controlPlaneLayout(id: string): ControlPlaneLayout {
    // `lc-<id>-k8s` is at most 15 characters (an 8-character id), the limit of an interface name.
    const name = `${clusterNames(id).prefix}k8s`;
    const dir = path.join(stateDir(id), "k8s");
    return {
        netns: name,
        veth: name,
        dir,
        pkiDir: path.join(dir, "pki"),
        etcdDataDir: path.join(dir, "etcd"),
        stateFile: path.join(dir, "control-plane.json"),
        adminKubeconfig: path.join(dir, "admin.kubeconfig"),
        kubeconfig: (user) => path.join(dir, `${user}.kubeconfig`),
        log: (component) => path.join(dir, `${component}.log`),
    };
}

export function apiServerUrl(address: string): string {
    return `https://${hostInUrl(address)}:${API_SERVER_PORT}`;
}
