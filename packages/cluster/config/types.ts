// The stack configuration as the user writes it (keys of the `ovn-kubernetes:` namespace in
// stacks/Pulumi.<env>.yaml) and as it is after validation with defaults applied.
// The JSON Schema in ./schema.ts is the single source of truth for field rules; these types mirror it.
import type { OvnkubeArchitecture, OvnkubeVersion } from "../kube/releases";

export type Role = "central" | "master" | "node" | "gateway";
export type EncapType = "geneve" | "stt" | "vxlan";
export type OsFamily = "debian" | "rhel";
export type DatapathType = "system" | "netdev";

/** Gateway settings of one gateway node (gateway-init). */
export interface GatewayConfig {
    /** `dedicated`: the NIC leaves the host stack and belongs to OVN; `shared`: the NIC is moved onto an OVS bridge. */
    mode: "dedicated" | "shared";
    /** The physical NIC (e.g. eth1 dedicated, eth0 shared). */
    interface: string;
    /** Shared mode only: the OVS bridge the NIC is moved onto (default `br<interface>`, e.g. breth0). */
    bridge?: string;
    /** The gateway's physical address with prefix, e.g. 10.33.74.138/24. */
    physicalIp: string;
    /** The next hop for 0.0.0.0/0 out of the gateway router. */
    defaultGateway: string;
    /** Cluster CIDRs whose traffic leaves through this gateway (policy=src-ip routes). */
    rampoutSubnets?: string[];
}

export interface NodeConfig {
    /** Kubernetes node name: lower-case DNS-1123 label, the logical switch's name. */
    name: string;
    /** SSH address of the host (IP or DNS name). */
    address: string;
    /** SSH port (default from `ssh.port`, 22). */
    port?: number;
    /** SSH user (default from `ssh.user`, root). */
    user?: string;
    /** Pinned SSH host key line (`ssh-ed25519 AAAA…`, from `ssh-keyscan -t ed25519 <address>`). */
    hostKey?: string;
    roles: Role[];
    /** This host's tunnel endpoint (ovn-encap-ip). Default: `address` when that is an IPv4 address. */
    tunnelIp?: string;
    /**
     * The NIC that holds tunnelIp. With datapathType netdev it is moved onto OVS bridge br<NIC>
     * (addresses and routes follow), because userspace tunnels only leave through an OVS bridge.
     */
    tunnelInterface?: string;
    /** Pinned node subnet; otherwise allocated from the cluster subnet. */
    subnet?: string;
    /** Package family of the host (default debian). */
    os?: OsFamily;
    /** OVS datapath of this host (default from the cluster's `datapathType`). */
    datapathType?: DatapathType;
    gateway?: GatewayConfig;
}

export interface ApiServerConfig {
    /** `http://host:port` (insecure) or `https://host[:port]` (secret `k8sApiToken`, `k8sCaCertificate` needed). */
    url: string;
}

export interface OvnTransportConfig {
    /** tcp or ssl; ssl needs the secrets ovnSslPrivateKey, ovnSslCertificate, ovnSslCaCertificate. */
    protocol: "tcp" | "ssl";
    nbPort: number;
    sbPort: number;
    /** Raft port of the clustered NB between central members (default 6643); only with several centrals. */
    nbRaftPort: number;
    /** Raft port of the clustered SB (default 6644). */
    sbRaftPort: number;
}

export interface SshConfig {
    user: string;
    port: number;
    /** Accept any host key. Off by default; only for throw-away labs. */
    insecureIgnoreHostKey: boolean;
}

export interface PackagesConfig {
    /** Pinned package versions (apt `=version`, dnf `-version`); empty means the repository's current one. */
    openvswitchVersion?: string;
    ovnVersion?: string;
    /** An extra package repository: apt source line or dnf baseurl. */
    repository?: { name: string; url: string; apt?: { suite: string; components: string } };
    /** Skip package installation entirely (hosts prepared by other means). */
    skip?: boolean;
}

/** Upstream's node identities: per-node client certificates and the admission webhook that holds each node to its own objects. */
export interface OvnkubeIdentityConfig {
    /** Default true, as upstream has it. */
    enabled: boolean;
    /**
     * Where the API server reaches the webhook: `localhost` (default, upstream's: every API server
     * runs on a master, beside an ovnkube-identity pod), or the address of a master node.
     */
    webhookAddress: string;
    /** The host file ovnkube-node requests its node certificate with: the kubelet's kubeconfig (kubeadm's path by default). */
    bootstrapKubeconfig: string;
}

export interface OvnkubeConfig {
    version: OvnkubeVersion;
    architecture: OvnkubeArchitecture;
    /** Default: the release's image (../kube/releases). */
    image: string;
    /** A directory (http(s) or file URL, ending in /) holding the release's CRD files under their upstream names. */
    crdMirror?: string;
    identity: OvnkubeIdentityConfig;
}

/** `ovnkube` as the user writes it: every key optional. */
export type OvnkubeConfigInput = Partial<Omit<OvnkubeConfig, "identity">> & { identity?: Partial<OvnkubeIdentityConfig> };

export interface KubernetesConfig {
    namespace: string;
    /** Deploy the ovnkube objects at all (default true). */
    enabled: boolean;
    /**
     * ovnkube mode without `kubeconfig`: use the operator's own kubeconfig (its current context).
     * Off by default, so a stack never writes to whatever cluster a shell happens to point at.
     */
    useAmbientConfig: boolean;
}

/** A secret as it arrives: plain text from the Pulumi config (program) or `{secure: ciphertext}` (file). */
export type SecretValue = string | { secure: string };

/** Everything in the `ovn-kubernetes:` namespace, before defaults. */
export interface StackConfigInput {
    nodes: NodeConfig[];
    clusterSubnet: string;
    hostSubnetLength?: number;
    serviceSubnet: string;
    joinSubnet?: string;
    transitSubnet?: string;
    masqueradeSubnet?: string;
    encapType?: EncapType;
    mtu?: number;
    datapathType?: DatapathType;
    apiServer: ApiServerConfig;
    ovnTransport?: Partial<OvnTransportConfig>;
    ssh?: Partial<SshConfig>;
    packages?: PackagesConfig;
    kubernetes?: Partial<KubernetesConfig>;
    ovnkube?: OvnkubeConfigInput;
    /** A throw-away lab: ssh.insecureIgnoreHostKey is expected and not warned about (default false). */
    lab?: boolean;
    // Secrets: separate keys so each is a Pulumi secret of its own.
    sshPrivateKey?: SecretValue;
    k8sApiToken?: SecretValue;
    k8sCaCertificate?: SecretValue;
    ovnSslPrivateKey?: SecretValue;
    ovnSslCertificate?: SecretValue;
    ovnSslCaCertificate?: SecretValue;
    kubeconfig?: SecretValue;
}

/** The config keys that must be Pulumi secrets. */
export const SECRET_KEYS = [
    "sshPrivateKey",
    "k8sApiToken",
    "k8sCaCertificate",
    "ovnSslPrivateKey",
    "ovnSslCertificate",
    "ovnSslCaCertificate",
    "kubeconfig",
] as const;
export type SecretKey = (typeof SECRET_KEYS)[number];

/** Validated config with every default applied. Secrets are left out: they travel as Pulumi secrets. */
export interface StackConfig {
    nodes: Array<NodeConfig & { port: number; user: string; os: OsFamily; datapathType: DatapathType; tunnelIp: string }>;
    clusterSubnet: string;
    hostSubnetLength: number;
    serviceSubnet: string;
    joinSubnet: string;
    transitSubnet: string;
    masqueradeSubnet: string;
    encapType: EncapType;
    mtu: number;
    datapathType: DatapathType;
    apiServer: ApiServerConfig;
    ovnTransport: OvnTransportConfig;
    ssh: SshConfig;
    packages: PackagesConfig;
    kubernetes: KubernetesConfig;
    ovnkube: OvnkubeConfig;
    lab: boolean;
    /** Which secrets are present (values never enter the model). */
    secretsPresent: SecretKey[];
}
