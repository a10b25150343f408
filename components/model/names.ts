// Northbound and host names, exactly as ovn-kubernetes spells them (see the topology facts):
// ovnkube and operators find objects by these names, so they are a contract, not a style.

export const CLUSTER_ROUTER = "ovn_cluster_router";
/** Interconnect: the switch joining the zones' cluster routers, one port `tstor-<node>` per zone. */
export const TRANSIT_SWITCH = "transit_switch";
export const transitSwitchPort = (node: string) => `tstor-${node}`;
export const routerToTransit = (node: string) => `rtots-${node}`;
/** OVN's run directory (pid files, control and database sockets) on Debian/Ubuntu and RHEL packages, and in the image's containers. */
export const OVN_RUN_DIR = "/var/run/ovn";
/** ovn-ctl's default database sockets there. */
export const NB_SOCKET = `${OVN_RUN_DIR}/ovnnb_db.sock`;
export const SB_SOCKET = `${OVN_RUN_DIR}/ovnsb_db.sock`;
/**
 * OVN from the image: the host directory holding a zone's database files, the one upstream's chart
 * mounts as the containers' /etc/ovn (v1.3.0 ovnkube-single-node-zone.yaml:58-59, 667-669).
 */
export const IMAGE_OVN_DB_DIR = "/var/lib/openvswitch";
export const NB_DB_FILE = "ovnnb_db.db";
export const SB_DB_FILE = "ovnsb_db.db";
/** ovnkube.sh's default `ovn_northd_backoff_interval` (ms): a zone's northd batches changes instead of spinning. */
export const NORTHD_BACKOFF_MS = "300";
/** A zone's local databases (interconnect): unix sockets only, as upstream's local-nb-ovsdb runs them. */
export const LOCAL_NB = `unix:${NB_SOCKET}`;
export const LOCAL_SB = `unix:${SB_SOCKET}`;
export const JOIN_SWITCH = "join";
export const PHYSNET = "physnet";
/** OVN's integration bridge, which ovn-controller owns on every chassis. */
export const INTEGRATION_BRIDGE = "br-int";

/** external_ids key on every OVS bridge the project creates; its value names the NIC move that owns it. */
export const BRIDGE_OWNER_KEY = "ovn-kubernetes-as-code:owner";

export const routerToJoin = (router: string) => `rtoj-${router}`;
export const joinToRouter = (router: string) => `jtor-${router}`;
export const routerToSwitch = (node: string) => `rtos-${node}`;
export const switchToRouter = (node: string) => `stor-${node}`;
export const gatewayRouter = (node: string) => `GR_${node}`;
export const externalSwitch = (node: string) => `ext_${node}`;
export const routerToExternal = (node: string) => `rtoe-${gatewayRouter(node)}`;
export const externalToRouter = (node: string) => `etor-${gatewayRouter(node)}`;
/** The OVS bridge a NIC moves onto when the stack names no bridge: `br<NIC>`, as ovnkube-node names it. */
export const nicBridge = (nic: string) => `br${nic}`;
export const uplinkPort = (bridge: string, node: string) => `${bridge}_${node}`;
export const mgmtPortName = (node: string) => `k8s-${node}`;
/** The type=vtep port on a logical switch that a VTEP's bindings join (one per physical switch and switch). */
export const vtepPort = (physicalSwitch: string, logicalSwitch: string) => `vtep-${physicalSwitch}-${logicalSwitch}`;
/** ovn-encap-type of every chassis when the stack has a VTEP: ovn-controller-vtep's chassis speak VXLAN only. */
export const VTEP_ENCAP = "vxlan";
/** The OVS internal interface of the management port: a Linux name, so at most 15 characters. */
export const mgmtInterfaceName = (node: string) => mgmtPortName(node).slice(0, 15);

/** ovnkube-node's DaemonSet (per node group, see KubeModel.nodeGroups). */
export const OVNKUBE_NODE = "ovnkube-node";
