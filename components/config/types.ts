// The stack configuration as the user writes it (keys of the `ovn-kubernetes:` namespace in
// stacks/Pulumi.<env>.yaml, or the cluster component's arguments) and as it is after validation
// with defaults applied. The JSON Schema in ./schema.ts holds the field rules; ./schemaShape.ts
// makes the compiler refuse a schema and these types that disagree on a key or its type.
// Enumerations are const objects, the form the component provider's schema inference reads as enums.
import type { OvnkubeArchitecture, OvnkubeVersion } from "./releases";
import type { OvnkubeGatewayMode } from "./features";
import type { OvnSource } from "./ovnSource";
import type { IpFamily } from "../values";

/** What a host does in the cluster. */
export const Role = { central: "central", master: "master", node: "node", gateway: "gateway", vtep: "vtep" } as const;
export type Role = (typeof Role)[keyof typeof Role];
/** The overlay tunnel (ovn-encap-type). */
export const EncapType = { geneve: "geneve", stt: "stt", vxlan: "vxlan" } as const;
export type EncapType = (typeof EncapType)[keyof typeof EncapType];
/** The host's package family. */
export const OsFamily = { debian: "debian", rhel: "rhel" } as const;
export type OsFamily = (typeof OsFamily)[keyof typeof OsFamily];
/** The OVS datapath: kernel (system) or userspace (netdev). */
export const DatapathType = { system: "system", netdev: "netdev" } as const;
export type DatapathType = (typeof DatapathType)[keyof typeof DatapathType];
/** How a gateway holds its NIC. */
export const GatewayMode = { dedicated: "dedicated", shared: "shared" } as const;
export type GatewayMode = (typeof GatewayMode)[keyof typeof GatewayMode];
/** The OVN databases' transport. */
export const OvnProtocol = { tcp: "tcp", ssl: "ssl" } as const;
export type OvnProtocol = (typeof OvnProtocol)[keyof typeof OvnProtocol];
/** An enumeration's values, for the JSON Schema's `enum`: each set of values is written once. */
export const valuesOf = <T extends Record<string, string>>(e: T): T[keyof T][] => Object.values(e) as T[keyof T][];

/** Gateway settings of one gateway node (gateway-init). */
export interface GatewayConfig {
    /** `dedicated`: the NIC leaves the host stack and belongs to OVN; `shared`: the NIC is moved onto an OVS bridge. */
    mode: GatewayMode;
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

/** One VLAN of a VTEP port joined to a logical switch (`vtep-ctl bind-ls`). */
export interface VtepBindingConfig {
    /** The VLAN id on the port (0: untagged frames). */
    vlan: number;
    /** The logical switch it joins: a Kubernetes node's switch, by the node's name. */
    logicalSwitch: string;
}

/** One physical port of a VTEP with its VLAN bindings. */
export interface VtepPortConfig {
    /** The host's NIC that faces the physical servers. */
    name: string;
    /** Its VLANs, each joined to a logical switch. */
    bindings: VtepBindingConfig[];
}

/** A hardware VTEP switch, emulated on this host by ovs-vtep and bound to OVN by ovn-controller-vtep (Pulumi mode). */
export interface VtepConfig {
    /** The physical switch's name in the VTEP database and its OVS bridge (default: the node's name). */
    physicalSwitch?: string;
    /** Its ports and their VLAN bindings. */
    ports: VtepPortConfig[];
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
    /** central: OVN NB/SB and northd; master/node: a Kubernetes node with its logical switch; gateway: gateway-init; vtep: a VTEP gateway (alone). */
    roles: Role[];
    /** This host's tunnel endpoint (ovn-encap-ip), of either family. Default: `address` when that is an IP address. */
    tunnelIp?: string;
    /**
     * ovnkube mode: the node's own addresses, one per address family of the cluster in the order of
     * its ranges, joined by a comma as the kubelet's `--node-ip` takes them. Default: tunnelIp; a dual-stack cluster needs both.
     */
    nodeIp?: string;
    /**
     * The NIC that holds tunnelIp. With datapathType netdev it is moved onto OVS bridge br<NIC>
     * (addresses and routes follow), because userspace tunnels only leave through an OVS bridge.
     */
    tunnelInterface?: string;
    /** Pinned node subnet, one per address family (joined by a comma in dual stack); otherwise allocated from the cluster subnet. */
    subnet?: string;
    /** Package family of the host (default debian). */
    os?: OsFamily;
    /** OVS datapath of this host (default from the cluster's `datapathType`). */
    datapathType?: DatapathType;
    /** Gateway nodes only: how the node leads traffic out of the cluster. */
    gateway?: GatewayConfig;
    /** Role vtep only: the VTEP switch this host emulates. */
    vtep?: VtepConfig;
    /** ovnkube mode, a Kubernetes node with ovnkube.features.egressIp: its gateway router may hold egress IPs (label k8s.ovn.org/egress-assignable). */
    egressAssignable?: boolean;
}

export interface ApiServerConfig {
    /** `http://host:port` (insecure) or `https://host[:port]` (secret `k8sApiToken`, `k8sCaCertificate` needed). */
    url: string;
}

export interface OvnTransportConfig {
    /** tcp or ssl; ssl needs the secrets ovnSslPrivateKey, ovnSslCertificate, ovnSslCaCertificate. */
    protocol: OvnProtocol;
    /** The Northbound database's port (default 6641). */
    nbPort: number;
    /** The Southbound database's port (default 6642). */
    sbPort: number;
    /** Raft port of the clustered NB between central members (default 6643); only with several centrals. */
    nbRaftPort: number;
    /** Raft port of the clustered SB (default 6644). */
    sbRaftPort: number;
}

export interface SshConfig {
    /** The SSH user of every host that names none (default root). */
    user: string;
    /** The SSH port of every host that names none (default 22). */
    port: number;
    /** Accept any host key. Off by default; only for throw-away labs. */
    insecureIgnoreHostKey: boolean;
}

export interface PackagesConfig {
    /** Pinned Open vSwitch package version (apt `=version`, dnf `-version`); empty means the repository's current one. */
    openvswitchVersion?: string;
    /** Pinned OVN package version, as openvswitchVersion. */
    ovnVersion?: string;
    /** An extra package repository. */
    repository?: PackageRepository;
    /** Skip package installation entirely (hosts prepared by other means). */
    skip?: boolean;
}

/** An extra package repository: apt source or dnf baseurl. */
export interface PackageRepository {
    /** The repository's name (its sources file or .repo name). */
    name: string;
    /** Its URL: the apt source's URI or the dnf baseurl. */
    url: string;
    /** apt only: the suite and components of the source line. */
    apt?: AptSource;
}

/** The rest of an apt source line. */
export interface AptSource {
    /** e.g. bookworm-backports. */
    suite: string;
    /** e.g. main. */
    components: string;
}

/** Upstream's node identities: per-node client certificates and the admission webhook that holds each node to its own objects. */
export interface OvnkubeIdentityConfig {
    /** Run ovnkube-identity (default true, as upstream has it). */
    enabled: boolean;
    /**
     * Where the API server reaches the webhook: `localhost` (default, upstream's: every API server
     * runs on a master, beside an ovnkube-identity pod), or the address of a master node.
     */
    webhookAddress: string;
    /** The host file ovnkube-node requests its node certificate with: the kubelet's kubeconfig (kubeadm's path by default). */
    bootstrapKubeconfig: string;
}

/**
 * The release's optional features for the default network, each ovnkube's flag; unset keys take the
 * chart's value at the release's tag (./features, docs/features.md).
 */
export interface OvnkubeFeatures {
    /** EgressIP (`--enable-egress-ip`; chart: on). */
    egressIp: boolean;
    /** EgressFirewall (`--enable-egress-firewall`; chart: on). */
    egressFirewall: boolean;
    /** EgressQoS (`--enable-egress-qos`; chart: on). */
    egressQos: boolean;
    /** EgressService (`--enable-egress-service`; chart: on). */
    egressService: boolean;
    /** AdminPolicyBasedExternalRoute (`--enable-multi-external-gateway`; chart: on). */
    multiExternalGateway: boolean;
    /** Load-balancer templates for NodePort services (`--enable-svc-template-support`; chart: on). */
    serviceTemplates: boolean;
    /** AdminNetworkPolicy and BaselineAdminNetworkPolicy, their CRDs applied too (`--enable-admin-network-policy`; chart: off). */
    adminNetworkPolicy: boolean;
    /** Multicast within annotated namespaces (`--enable-multicast`; chart: off). */
    multicast: boolean;
    /** NetworkQoS (`--enable-network-qos`; chart: off). */
    networkQos: boolean;
    /** Stateless NetworkPolicies (`--enable-stateless-netpol`; chart: off). */
    statelessNetworkPolicy: boolean;
    /** ICMP passes NetworkPolicy default-deny (`--allow-icmp-network-policy`; 1.3 and later; chart: off). */
    allowIcmpNetworkPolicy: boolean;
    /** RouteAdvertisements (`--enable-route-advertisements`): needs FRR-k8s, which is not deployed, so refused. */
    routeAdvertisements: boolean;
    /** EVPN (`--enable-evpn`; 1.3 and later): needs routeAdvertisements. */
    evpn: boolean;
    /** DNS names in EgressFirewall (`--enable-dns-name-resolver`): needs the DNSNameResolver CRD, which is not deployed, so refused. */
    dnsNameResolver: boolean;
    /** NetworkAttachmentDefinitions, the base of user-defined and secondary networks, its CRD applied too (`--enable-multi-network`; chart: off). */
    multiNetwork: boolean;
    /** UserDefinedNetwork and ClusterUserDefinedNetwork (`--enable-network-segmentation`; chart: off): needs multiNetwork. */
    networkSegmentation: boolean;
    /** ClusterNetworkConnect (`--enable-network-connect`; 1.3 and later; chart: off): needs networkSegmentation and interconnect. */
    networkConnect: boolean;
    /** Pods asking for their UDN addresses (`--enable-preconfigured-udn-addresses`; chart: off): needs networkSegmentation and interconnect. */
    preconfiguredUdnAddresses: boolean;
    /** UDNs set up on a node only while it runs their pods (`--enable-dynamic-udn-allocation`; 1.3 and later; chart: off): needs networkSegmentation. */
    dynamicUdnAllocation: boolean;
    /** IPAMClaims, their CRD applied too (`--enable-persistent-ips`; chart: on, here off): needs multiNetwork. */
    persistentIps: boolean;
    /** MultiNetworkPolicy, its CRD applied too (`--enable-multi-networkpolicy`; chart: with multi-network): needs multiNetwork. */
    multiNetworkPolicy: boolean;
    /** EgressIP node reachability over gRPC on this TCP port (`--egressip-node-healthcheck-port`; chart: 9107; 0: the legacy port-9 check). */
    egressIpHealthCheckPort: number;
}

export interface OvnkubeConfig {
    /** The ovn-kubernetes release line (upstream maintains the two newest). */
    version: OvnkubeVersion;
    /** interconnect: a zone (local NB, SB, northd) per node; centralized: one NB/SB on the central(s), deprecated upstream. */
    architecture: OvnkubeArchitecture;
    /** Default: the release's image (./releases). */
    image: string;
    /** Accept an image tag that follows a branch (`latest`, `master`) instead of the release (default false). */
    allowMovingImageTag: boolean;
    /** A directory (http(s) or file URL, ending in /) holding the release's CRD files under their upstream names. */
    crdMirror?: string;
    /** ovnkube-identity: per-node client certificates and the webhook holding each node to its own objects. */
    identity: OvnkubeIdentityConfig;
    /** ovnkube's gateway mode: shared (the chart's) or local. */
    gatewayMode: OvnkubeGatewayMode;
    /** The release's optional features. */
    features: OvnkubeFeatures;
    /** IPsec between the nodes' tunnel endpoints (`NB_Global ipsec` in every zone, ovs-monitor-ipsec on every chassis). */
    ipsec: boolean;
    /** Where OVN runs: the hosts' packages, or the image's containers in the ovnkube-node pod. */
    ovnSource: OvnSource;
    /** The OVN the image carries (default: the release image's, ../config/releases imageOvn). */
    imageOvnVersion: string;
}

/** The ovn-kubernetes release and architecture ovnkube mode deploys; every key optional. */
export interface OvnkubeConfigInput {
    /** The ovn-kubernetes release line (default the newest). */
    version?: OvnkubeVersion;
    /** interconnect (default) or centralized (deprecated upstream). */
    architecture?: OvnkubeArchitecture;
    /** ovnkube container image (default: the release's image). */
    image?: string;
    /** Accept an image tag that follows a branch (`latest`, `master`) instead of the release (default false). */
    allowMovingImageTag?: boolean;
    /** Read the release's CRD files from this directory (http(s) or file URL ending in /) instead of upstream. */
    crdMirror?: string;
    /** ovnkube-identity settings. */
    identity?: Partial<OvnkubeIdentityConfig>;
    /** ovnkube's gateway mode: shared (default, the chart's) routes egress through OVN's gateway router; local through the host's routing table. */
    gatewayMode?: OvnkubeGatewayMode;
    /** The release's optional features (default: the chart's values at the release's tag). */
    features?: Partial<OvnkubeFeatures>;
    /** IPsec between the nodes' tunnel endpoints (default false, as the chart's enableIpsec). */
    ipsec?: boolean;
    /** Where OVN runs: `packages` (default: the hosts' distribution packages) or `image` (containers of the ovnkube-node pod, from `image`). */
    ovnSource?: OvnSource;
    /** With ovnSource image: the OVN version the image carries (default: the release image's; required for another image). */
    imageOvnVersion?: string;
}

export interface KubernetesConfig {
    /** The namespace of the ovnkube objects (default ovn-kubernetes); the stack owns it. */
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

/** Every setting of a cluster but its secrets, before defaults: the stack config keys, the component's arguments. */
export interface ClusterSettings {
    /** Every machine of the cluster. */
    nodes: NodeConfig[];
    /** The pod network, split into node subnets: one CIDR, or one per address family joined by a comma (dual stack, the primary first). */
    clusterSubnet: string;
    /** Prefix length of each IPv4 node subnet (default 24); IPv6 node subnets are /64, the only length ovnkube takes. */
    hostSubnetLength?: number;
    /** The Kubernetes service CIDR, one per family of clusterSubnet. */
    serviceSubnet: string;
    /** Links the cluster router to the gateway routers (default 100.64.0.0/16 and fd98::/64), one per family. */
    joinSubnet?: string;
    /** Interconnect: the transit switch joining the zones' cluster routers (default 100.88.0.0/16 and fd97::/64), one per family. */
    transitSubnet?: string;
    /** ovnkube mode: the host masquerade addresses (default 169.254.0.0/17 and fd69::/112), one per family. */
    masqueradeSubnet?: string;
    /** The overlay tunnel (default geneve). */
    encapType?: EncapType;
    /** Pod and management port MTU (default 1400); it must leave room for the tunnel. */
    mtu?: number;
    /** The OVS datapath of every host that names none (default system). */
    datapathType?: DatapathType;
    /** The Kubernetes API server ovnkube talks to. */
    apiServer: ApiServerConfig;
    /** How the OVN databases listen: protocol and ports. */
    ovnTransport?: Partial<OvnTransportConfig>;
    /** SSH defaults of every host. */
    ssh?: Partial<SshConfig>;
    /** OVS and OVN package installation. */
    packages?: PackagesConfig;
    /** The Kubernetes side: namespace, whether ovnkube is deployed, which kubeconfig. */
    kubernetes?: Partial<KubernetesConfig>;
    /** ovnkube mode: the ovn-kubernetes release and architecture. */
    ovnkube?: OvnkubeConfigInput;
    /** clusterSubnet and serviceSubnet may be public address space the operator owns (default false: private space only). */
    allowPublicClusterRanges?: boolean;
    /** A throw-away lab: ssh.insecureIgnoreHostKey is expected and not warned about (default false). */
    lab?: boolean;
}

/** Everything in the `ovn-kubernetes:` namespace, before defaults. */
export interface StackConfigInput extends ClusterSettings {
    // Secrets: separate keys so each is a Pulumi secret of its own.
    sshPrivateKey: SecretValue;
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

/** A node with its defaults; its ranges and addresses one per family of the cluster, in its order. */
export type StackNode = Omit<NodeConfig, "subnet" | "nodeIp"> & {
    port: number;
    user: string;
    os: OsFamily;
    datapathType: DatapathType;
    tunnelIp: string;
    nodeIps: string[];
    /** Pinned subnets, one per family (absent: planned). */
    subnets?: string[];
};

/** Validated config with every default applied. Secrets are left out: they travel as Pulumi secrets. */
export interface StackConfig {
    nodes: StackNode[];
    /** The cluster's address families, the primary first; every range below has one entry per family, in this order. */
    ipFamilies: IpFamily[];
    clusterSubnets: string[];
    hostSubnetLengths: number[];
    serviceSubnets: string[];
    joinSubnets: string[];
    transitSubnets: string[];
    masqueradeSubnets: string[];
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
