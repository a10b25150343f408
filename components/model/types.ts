// The desired cluster: a pure function of the validated stack config (see ./cluster.ts).
// Every name, address and MAC any layer needs is decided here, once.
import type { DatapathType, EncapType, GatewayMode, OsFamily, PackagesConfig, Role } from "../config/types";
import type { OvnkubeArchitecture, OvnkubeVersion } from "../config/releases";
import type { FeatureSettings, OvnkubeGatewayMode } from "../config/features";
import type { OvnSource } from "../config/ovnSource";
import type { SshTarget } from "./sshTarget";
import type { IpFamily } from "../values";

/** An address on an interface: `ip` plain, `cidr` with prefix length, e.g. 10.128.0.1 and 10.128.0.1/24. */
export interface IfAddress {
    ip: string;
    cidr: string;
    mac: string;
}

export interface HostModel {
    name: string;
    roles: Role[];
    ssh: SshTarget;
    os: OsFamily;
    /** Distribution packages this host needs, in install order. */
    packages: string[];
    isCentral: boolean;
    /**
     * Interconnect: the zone this host is, named after its node. It runs its own NB, SB and
     * ovn-northd, listening on unix sockets only.
     */
    zone?: string;
    /** Runs ovn-controller (every master, node and gateway). */
    isChassis: boolean;
    datapathType: DatapathType;
    /** ovnkube.ipsec: the zone's NB_Global ipsec is true, and the chassis runs ovs-monitor-ipsec. */
    ipsec: boolean;
    /** Settings of the local Open_vSwitch row (present only on chassis hosts). */
    chassis?: ChassisModel;
    /** A VTEP gateway's settings (role vtep), the same object as in ClusterModel.vteps. */
    vtep?: VtepModel;
}

export interface ChassisModel {
    /** Which external_ids the chassis layer owns: all of them (pulumi), or only those ovnkube-node never writes (ovnkube). */
    writer: TopologyWriter;
    encapIp: string;
    /** ovn-encap-type: the stack's encapType, plus `vxlan` when the stack has a VTEP gateway (e.g. `geneve,vxlan`). */
    encapType: string;
    /** `physnet:<bridge>` on gateway nodes, else undefined (the key is then managed absent). */
    bridgeMappings?: string;
    /** external_ids:k8s-api-server */
    k8sApiServer: string;
    /** Where ovn-controller runs: the host's own daemon (packages), or a container of the ovnkube-node pod (image). */
    controller: OvnSource;
    /** Userspace datapath: the NIC holding encapIp moved onto this OVS bridge (unless a shared gateway bridge has it). */
    tunnelBridge?: { interface: string; bridge: string };
}

/** One VLAN of a VTEP port joined to a logical switch. */
export interface VtepBindingModel {
    port: string;
    vlan: number;
    /** The OVN logical switch; the VTEP database's logical switch has the same name. */
    logicalSwitch: string;
}

/** A VTEP gateway (role vtep): ovs-vtep emulating the physical switch, ovn-controller-vtep binding it to OVN. */
export interface VtepModel {
    host: string;
    /** The Physical_Switch's name in the VTEP database, also its OVS bridge. */
    physicalSwitch: string;
    /** The Physical_Switch's tunnel_ips: the node's tunnel IP. */
    tunnelIp: string;
    datapathType: DatapathType;
    /** Userspace datapath: the NIC holding tunnelIp moved onto this OVS bridge, as on a chassis. */
    tunnelBridge?: { interface: string; bridge: string };
    /** ovn-controller-vtep's --ovnsb-db. */
    sbAddress: string;
    /** The NICs on the physical switch's bridge, in config order. */
    ports: string[];
    bindings: VtepBindingModel[];
    /** The NB side: one type=vtep port per logical switch the bindings join. */
    switchPorts: { switchName: string; port: string }[];
}

export interface CentralModel {
    host: string;
    /** NB listener, e.g. `ptcp:6641:10.0.0.1` or `pssl:6641:10.0.0.1`. */
    nbListener: string;
    sbListener: string;
    ssl: boolean;
    /** Several centrals: NB and SB are raft clusters of these members. Absent with one central. */
    cluster?: CentralClusterModel;
}

export interface CentralClusterModel {
    /** Every member in config order; the first creates the clusters, the others join. */
    members: { host: string; ip: string }[];
    /** Clients, listeners and raft use it alike (ssl: raft is encrypted too). */
    protocol: "tcp" | "ssl";
    nbPort: number;
    sbPort: number;
    nbRaftPort: number;
    sbRaftPort: number;
}

export interface ClusterRouterModel {
    name: string; // ovn_cluster_router
    joinSwitch: string; // join
    /** rtoj-<router> on the cluster router: first join address. */
    joinPort: string;
    joinPeerPort: string; // jtor-<router>
    joinAddress: IfAddress;
    clusterSubnet: string;
}

export interface NodeNetworkModel {
    node: string;
    switchName: string; // = node name
    subnet: string;
    /** Router port rtos-<node> on the cluster router: first address of the subnet. */
    routerPort: string;
    routerPeerPort: string; // stor-<node>
    router: IfAddress;
    /** Logical port and OVS internal interface of the management port. */
    mgmtPort: string; // k8s-<node>
    mgmtInterface: string; // k8s-<node> cut to 15 characters
    mgmt: IfAddress;
    clusterSubnet: string;
    clusterRouter: string;
    mtu: number;
}

export interface GatewayModel {
    node: string;
    router: string; // GR_<node>
    joinPort: string; // rtoj-GR_<node>
    joinPeerPort: string; // jtor-GR_<node>
    join: IfAddress;
    /** The cluster router's join address: next hop from the gateway router to the cluster. */
    clusterRouterJoinIp: string;
    externalSwitch: string; // ext_<node>
    externalPort: string; // rtoe-GR_<node>
    externalPeerPort: string; // etor-GR_<node>
    /** Localnet port on ext_<node> (`breth0_<node>`), network_name `physnet`. */
    uplinkPort: string;
    physnet: string;
    physical: IfAddress;
    defaultGateway: string;
    rampoutSubnets: string[];
    clusterSubnet: string;
    clusterRouter: string;
    mode: GatewayMode;
    /** Host NIC and the OVS bridge that carries the localnet traffic. */
    interface: string;
    bridge: string;
}

export interface KubeModel {
    namespace: string;
    version: OvnkubeVersion;
    architecture: OvnkubeArchitecture;
    image: string;
    /** Where each of the release's CRDs is read: upstream's URL, or the mirror's file of that name. */
    crdUrls: string[];
    /** The cluster's address families, the primary first: the order of every per-family list here. */
    ipFamilies: IpFamily[];
    /** `--cluster-manager-v4/v6-transit-subnet` (interconnect) and `--gateway-v4/v6-masquerade-subnet`, one per family. */
    transitSubnets: string[];
    masqueradeSubnets: string[];
    /** Node identities and the admission webhook (ovnkube-identity); absent when disabled. */
    identity?: IdentityModel;
    /** `--gateway-mode`. */
    gatewayMode: OvnkubeGatewayMode;
    /** Where each node's OVN runs; with `image` the ovnkube-node pod runs it from `image` (../kube/ovnContainers). */
    ovnSource: OvnSource;
    /** Centralized with OVN from the image: the central databases the `ovnkube-db` DaemonSet runs on the centrals. */
    centralDatabases?: ImageCentralModel;
    /** The release's optional features, every one decided (../config/features). */
    features: FeatureSettings;
    /** `--egressip-node-healthcheck-port` (with features.egressIp). */
    egressIpHealthCheckPort: number;
    /** Data of ConfigMap ovn-config (keys of the seeds: OvnNorth, OvnSouth, k8s_apiserver, net_cidr, svc_cidr, mtu). */
    config: Record<string, string>;
    masterNodes: string[];
    secureApi: boolean;
    /** `--gateway-v4/v6-join-subnet`: where ovnkube takes gateway router join addresses (base + node-id), one per family. */
    joinSubnets: string[];
    /** The cluster router's join port (`rtoj-ovn_cluster_router`), one address per family. */
    clusterRouterJoin: IfAddress[];
    /** Every Kubernetes node with the plan ovnkube is fed through its Node annotations. */
    nodes: OvnkubeNodeModel[];
    /**
     * Nodes that take the same ovnkube-node flags (gateway interface and next hop): one DaemonSet
     * each, the first named `ovnkube-node` as in the seeds, the others `ovnkube-node-<n>`.
     */
    nodeGroups: OvnkubeNodeGroup[];
}

/** The centrals' NB and SB (and ovn-northd) as pods: one member per central, raft with several (../kube/ovnkubeDb). */
export interface ImageCentralModel {
    /** Every central in config order (Kubernetes nodes): the first creates the raft clusters, the others join. */
    members: { node: string; ip: string }[];
    nbPort: number;
    sbPort: number;
    /** Several members: the raft ports; absent with one central (standalone databases). */
    raft?: { nbPort: number; sbPort: number };
}

export interface IdentityModel {
    /** Host of the webhook's URL, which its serving certificate names. */
    webhookAddress: string;
    /** Where ovnkube-identity listens: localhost, or each master's own address (the Node's InternalIP). */
    listen: "localhost" | "node";
    /** The kubelet's kubeconfig on the hosts, for ovnkube-node's certificate request. */
    bootstrapKubeconfig: string;
}

/** What the project plans for one node in ovnkube mode; ovnkube realises it (see README "Who writes what"). */
export interface OvnkubeNodeModel {
    name: string;
    /** `k8s.ovn.org/node-subnets` = {"default":[…]}: the planned node subnet of each family, in the cluster's order. */
    subnets: string[];
    /** `k8s.ovn.org/node-id`: ovnkube derives the gateway router's join address from it (join base + id). */
    nodeId: number;
    /** The join address of each family ovnkube gives `rtoj-GR_<node>` for that node-id, e.g. 100.64.0.7/16 and fd98::7/64. */
    gatewayRouterJoin: IfAddress[];
    /** Interconnect: the cluster manager's transit address of each family for that node-id (`rtots-<node>`), e.g. 100.88.0.7/16. */
    transit?: IfAddress[];
    /** The node's tunnel endpoint: ovnkube-node writes it as ovn-encap-ip (`-encap-ip`, the Node's InternalIP). */
    encapIp: string;
    /** The address of each family ovnkube's gateway router SNATs pod traffic to: the gateway bridge's address. */
    gatewayIps: string[];
    /** Label k8s.ovn.org/egress-assignable: the node may hold egress IPs. */
    egressAssignable?: boolean;
}

export interface OvnkubeNodeGroup {
    /** DaemonSet name. */
    name: string;
    nodes: string[];
    /** `-gateway-interface`: the OVS bridge the project set up; absent: ovnkube picks the NIC of the default route. */
    gatewayInterface?: string;
    /** `-gateway-nexthop`; absent: the default route's gateway. */
    gatewayNexthop?: string;
}

/**
 * Who writes the per-node topology. `pulumi`: the project's providers write every NB row (Kubernetes
 * disabled, as the seeds' master-init/minion-init/gateway-init did). `ovnkube`: ovnkube realises the
 * rows from the project's plan (Node annotations, flags, host bridges) and the project only checks them.
 */
export type TopologyWriter = "pulumi" | "ovnkube";

export interface ClusterModel {
    writer: TopologyWriter;
    /** ovnkube mode's architecture; Pulumi mode is always centralized (one NB for the project to write). */
    architecture: OvnkubeArchitecture;
    /** The address families, the primary first; each list below has one entry per family in this order. */
    ipFamilies: IpFamily[];
    clusterSubnets: string[];
    serviceSubnets: string[];
    joinSubnets: string[];
    mtu: number;
    encapType: EncapType;
    /** e.g. tcp:10.0.0.1:6641 / ssl:10.0.0.1:6641 */
    nbAddress: string;
    sbAddress: string;
    /** Absent with interconnect: every zone host runs its own databases (HostModel.zone). */
    central?: CentralModel;
    hosts: HostModel[];
    /** Version pins, extra repository, or `skip` (the hosts bring their own packages). */
    packages: PackagesConfig;
    /** Where OVN runs: the hosts' packages, or (ovnkube mode, interconnect) the image's containers in each ovnkube-node pod. */
    ovnSource: OvnSource;
    /** ovnSource image: the image's OVN and the oldest Open vSwitch it runs against, which every Kubernetes node's host must have. */
    imageOvn?: { version: string; minimumOvs: string };
    clusterRouter: ClusterRouterModel;
    nodeNetworks: NodeNetworkModel[];
    gateways: GatewayModel[];
    /** VTEP gateways (Pulumi mode). */
    vteps: VtepModel[];
    kube: KubeModel;
}
