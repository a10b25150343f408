// Who is who in the local control plane: the certificates of its components, of the admin and
// of each kubelet, and the kubeconfigs that carry them. Users and groups are those Kubernetes'
// bootstrap RBAC policy and Node authorizer expect, so every component gets exactly the rights
// it has on a kubeadm cluster.
import * as fs from "node:fs";
import * as ipaddr from "ipaddr.js";
import { PATTERNS } from "@ovn-kubernetes-as-code/cluster/values";
import { buildKubeconfig } from "../../kubeclient";
import type { ControlPlaneFiles } from "./flags";
import type { ControlPlaneLayout } from "./layout";
import { ensureCa, ensureKeyPair, issueCert, type IssuedCert } from "./pki";

/** kubeadm's admin: member of system:masters, bound to cluster-admin. */
export const ADMIN_USER = { name: "kubernetes-admin", groups: ["system:masters"] } as const;
const CONTROLLER_MANAGER_USER = "system:kube-controller-manager";
const SCHEDULER_USER = "system:kube-scheduler";
/** kubeadm's apiserver-kubelet-client: the API server towards kubelets, with full rights there. */
const API_SERVER_KUBELET_CLIENT = { name: "kube-apiserver-kubelet-client", groups: ["system:masters"] } as const;

/** The user a kubelet authenticates as: the Node authorizer and NodeRestriction key on it. */
export function kubeletUser(node: string): { name: string; groups: string[] } {
    return { name: `system:node:${node}`, groups: ["system:nodes"] };
}

/**
 * The first address of a service range, in either family: the `kubernetes` Service's ClusterIP
 * that the API server allocates for itself (its network address plus one).
 */
export function kubernetesServiceIp(serviceSubnet: string): string {
    const v6 = serviceSubnet.includes(":");
    const first = (v6 ? ipaddr.IPv6 : ipaddr.IPv4).networkAddressFromCIDR(serviceSubnet).toByteArray();
    first[first.length - 1] += 1;
    const ip = ipaddr.fromByteArray(first);
    return v6 ? (ip as ipaddr.IPv6).toRFC5952String() : ip.toString();
}

/** The names and addresses in the API server's certificate: its own in each family, and the `kubernetes` Service's in each range. */
export function apiServerSans(
    addresses: readonly string[],
    serviceSubnets: readonly string[],
): { dnsNames: string[]; ipAddresses: string[] } {
    return {
        dnsNames: ["kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local", "localhost"],
        ipAddresses: [...addresses, "127.0.0.1", ...serviceSubnets.map(kubernetesServiceIp)],
    };
}

export interface ControlPlanePki {
    ca: IssuedCert;
    admin: IssuedCert;
    files: ControlPlaneFiles;
}

/** Writes a kubeconfig (it holds a private key: 0600) and returns its text. */
export function writeKubeconfig(file: string, server: string, caPem: string, user: string, cert: IssuedCert): string {
    const text = buildKubeconfig({ server, caPem, user, credentials: { certPem: cert.certPem, keyPem: cert.keyPem } });
    fs.writeFileSync(file, text, { mode: 0o600 });
    return text;
}

/** The CA, the API server's serving certificate, the service-account keys and the components' kubeconfigs. */
export async function controlPlanePki(
    layout: ControlPlaneLayout,
    id: string,
    addresses: readonly string[],
    serviceSubnets: readonly string[],
    server: string,
): Promise<ControlPlanePki> {
    const dir = layout.pkiDir;
    const ca = await ensureCa(dir, `ovn-kubernetes-lab-${id}-ca`);
    const [apiServer, admin, controllerManager, scheduler, kubeletClient] = await Promise.all([
        issueCert(ca, dir, "apiserver", { commonName: "kube-apiserver", usage: "server", ...apiServerSans(addresses, serviceSubnets) }),
        issueCert(ca, dir, "admin", { commonName: ADMIN_USER.name, organizations: ADMIN_USER.groups, usage: "client" }),
        issueCert(ca, dir, "controller-manager", { commonName: CONTROLLER_MANAGER_USER, usage: "client" }),
        issueCert(ca, dir, "scheduler", { commonName: SCHEDULER_USER, usage: "client" }),
        issueCert(ca, dir, "apiserver-kubelet-client", {
            commonName: API_SERVER_KUBELET_CLIENT.name,
            organizations: API_SERVER_KUBELET_CLIENT.groups,
            usage: "client",
        }),
    ]);
    const serviceAccount = ensureKeyPair(dir, "service-account");
    const files: ControlPlaneFiles = {
        caCert: ca.certPath,
        caKey: ca.keyPath,
        apiServerCert: apiServer.certPath,
        apiServerKey: apiServer.keyPath,
        apiServerKubeletClientCert: kubeletClient.certPath,
        apiServerKubeletClientKey: kubeletClient.keyPath,
        serviceAccountKey: serviceAccount.keyPath,
        serviceAccountPublicKey: serviceAccount.publicPath,
        controllerManagerKubeconfig: layout.kubeconfig("controller-manager"),
        schedulerKubeconfig: layout.kubeconfig("scheduler"),
    };
    writeKubeconfig(files.controllerManagerKubeconfig, server, ca.certPem, CONTROLLER_MANAGER_USER, controllerManager);
    writeKubeconfig(files.schedulerKubeconfig, server, ca.certPem, SCHEDULER_USER, scheduler);
    return { ca, admin, files };
}

export interface NodeCredentials {
    /** `system:node:<name>`, group `system:nodes`. */
    user: string;
    certPem: string;
    keyPem: string;
    /** A kubeconfig for the kubelet (or anything acting as it), and where it was written (0600). */
    kubeconfig: string;
    kubeconfigPath: string;
}

/** A kubelet's client certificate and kubeconfig, issued once per node name. */
export async function nodeCredentials(layout: ControlPlaneLayout, ca: IssuedCert, server: string, node: string): Promise<NodeCredentials> {
    if (!PATTERNS.nodeName.re.test(node)) throw new Error(`invalid node name ${JSON.stringify(node)}: a lower-case DNS-1123 label`);
    const user = kubeletUser(node);
    const cert = await issueCert(ca, layout.pkiDir, `kubelet-${node}`, {
        commonName: user.name,
        organizations: user.groups,
        usage: "client",
    });
    const kubeconfigPath = layout.kubeconfig(`kubelet-${node}`);
    const kubeconfig = writeKubeconfig(kubeconfigPath, server, ca.certPem, user.name, cert);
    return { user: user.name, certPem: cert.certPem, keyPem: cert.keyPem, kubeconfig, kubeconfigPath };
}
