// Command lines of etcd and the Kubernetes control plane components. Pure: every path and
// address comes from the caller, so what runs can be read (and tested) in one place.
import { ETCD_CLIENT_URL, ETCD_PEER_URL, API_SERVER_PORT } from "./layout";

export interface ControlPlaneFiles {
    caCert: string;
    caKey: string;
    apiServerCert: string;
    apiServerKey: string;
    /** The API server's client certificate towards kubelets (logs, exec, port-forward). */
    apiServerKubeletClientCert: string;
    apiServerKubeletClientKey: string;
    serviceAccountKey: string;
    serviceAccountPublicKey: string;
    controllerManagerKubeconfig: string;
    schedulerKubeconfig: string;
}

/** etcd 3.4 on the namespace's loopback only: nothing outside the control plane needs it. */
export function etcdArgv(etcd: string, dataDir: string): string[] {
    return [
        etcd,
        "--name",
        "default",
        "--data-dir",
        dataDir,
        "--listen-client-urls",
        ETCD_CLIENT_URL,
        "--advertise-client-urls",
        ETCD_CLIENT_URL,
        "--listen-peer-urls",
        ETCD_PEER_URL,
        "--initial-advertise-peer-urls",
        ETCD_PEER_URL,
        "--initial-cluster",
        `default=${ETCD_PEER_URL}`,
    ];
}

/** Where the API server listens and what it advertises (the `kubernetes` Service's endpoint). */
export interface ApiServerAddresses {
    /** The control plane's address in each family the cluster runs, the primary family first. */
    addresses: readonly string[];
}

/**
 * One family: the API server listens on its address only, as always. IPv6 on the underlay: on
 * every address of its namespace (`::` takes both families), so clients of either family reach
 * it. It advertises the primary family's address: the `kubernetes` Service's endpoint must be of
 * the family of the first service range.
 */
export function apiServerArgv(bin: string, f: ControlPlaneFiles, at: ApiServerAddresses, serviceSubnets: readonly string[]): string[] {
    const [advertise] = at.addresses;
    const anyIpv6 = at.addresses.some((a) => a.includes(":"));
    return [
        bin,
        `--etcd-servers=${ETCD_CLIENT_URL}`,
        `--bind-address=${anyIpv6 ? "::" : advertise}`,
        `--advertise-address=${advertise}`,
        `--secure-port=${API_SERVER_PORT}`,
        `--tls-cert-file=${f.apiServerCert}`,
        `--tls-private-key-file=${f.apiServerKey}`,
        // Client certificates signed by the cluster CA authenticate: CN = user, O = groups.
        `--client-ca-file=${f.caCert}`,
        // As a real cluster: kubelets (system:node:<name>) may only touch their own Node and the
        // objects bound to it; everyone else goes through RBAC.
        "--authorization-mode=Node,RBAC",
        "--enable-admission-plugins=NodeRestriction",
        `--service-account-key-file=${f.serviceAccountPublicKey}`,
        `--service-account-signing-key-file=${f.serviceAccountKey}`,
        "--service-account-issuer=https://kubernetes.default.svc",
        // Dual stack: one range per family, in the stack's order (the first is the primary family).
        `--service-cluster-ip-range=${serviceSubnets.join(",")}`,
        // ovnkube-node runs privileged.
        "--allow-privileged=true",
        // As kubeadm: the API server authenticates to kubelets with its own client certificate
        // and dials them at their InternalIP (no DNS knows the node names).
        `--kubelet-client-certificate=${f.apiServerKubeletClientCert}`,
        `--kubelet-client-key=${f.apiServerKubeletClientKey}`,
        "--kubelet-preferred-address-types=InternalIP",
    ];
}

/**
 * What kube-controller-manager and kube-scheduler share: one identity for the API, for checking
 * who calls their own health and metrics endpoints and what they may see there; those endpoints
 * on the namespace's loopback only; and no leader election, since each runs once.
 */
function componentCommon(kubeconfig: string): string[] {
    return [
        `--kubeconfig=${kubeconfig}`,
        `--authentication-kubeconfig=${kubeconfig}`,
        `--authorization-kubeconfig=${kubeconfig}`,
        "--bind-address=127.0.0.1",
        "--leader-elect=false",
    ];
}

export function controllerManagerArgv(bin: string, f: ControlPlaneFiles): string[] {
    return [
        bin,
        ...componentCommon(f.controllerManagerKubeconfig),
        // Node subnets are the project's plan (k8s.ovn.org/node-subnets), not the node IPAM
        // controller's. Node lifecycle stays on: it lifts the not-ready taint of a Node whose
        // Ready condition is fresh, so the scheduler places pods on it.
        "--controllers=*,-nodeipam",
        `--service-account-private-key-file=${f.serviceAccountKey}`,
        `--root-ca-file=${f.caCert}`,
        "--use-service-account-credentials=true",
        // Lets certificate signing requests (kubelet client and serving certificates) be signed by the cluster CA.
        `--cluster-signing-cert-file=${f.caCert}`,
        `--cluster-signing-key-file=${f.caKey}`,
    ];
}

export function schedulerArgv(bin: string, f: ControlPlaneFiles): string[] {
    return [bin, ...componentCommon(f.schedulerKubeconfig)];
}
