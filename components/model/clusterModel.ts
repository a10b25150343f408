// The cluster model: validated config in, every desired name, address and setting out.
// Pure and deterministic: no I/O, no Pulumi, same input → same output.
import type { DatapathType, OsFamily, StackConfig } from "../config/types";
import { planAddresses, AddressPlan, MAX_OVNKUBE_NODE_ID } from "./addressPlan";
import { addressAt, familyOf, parseNetwork } from "../values";
import { ifAddress, ifAddressAt } from "./ifAddress";
import * as names from "./names";
import { releaseCrdUrls } from "../config/releases";
import { featureSettings } from "../config/features";
import { minimumOvsFor } from "../config/ovnSource";
import { isChassis, isK8sNode, isVtep, tunnelBridgeOf } from "./nodes";
import type {
    ClusterModel,
    GatewayModel,
    HostModel,
    NodeNetworkModel,
    OvnkubeNodeGroup,
    OvnkubeNodeModel,
    TopologyWriter,
    VtepModel,
} from "./types";

type Node = StackConfig["nodes"][number];

/** A VTEP gateway's packages (Debian only, ../plan/checks/vtep): the emulator and OVN's controller for it. */
const VTEP_PACKAGES = ["openvswitch-vtep", "ovn-common", "ovn-controller-vtep"];

/**
 * IPsec's packages: ovs-monitor-ipsec, and on Debian strongSwan's gcm plugin, which its strongSwan
 * configuration loads and proposes (`aes256gcm16`, openvswitch ipsec/ovs-monitor-ipsec.in:145-175
 * at v3.1.0) and which only libstrongswan-standard-plugins carries: a Recommends of strongSwan's,
 * which the package step's --no-install-recommends leaves out. Without it IKE fails: "AES_GCM_16 not supported".
 */
const IPSEC_PACKAGES: Record<OsFamily, string[]> = {
    debian: ["openvswitch-ipsec", "libstrongswan-standard-plugins"],
    rhel: ["openvswitch-ipsec"],
};

/** Distribution packages: OVS everywhere, ovn-central on the central node, ovn-host (and with IPsec IPSEC_PACKAGES) on chassis, the VTEP's on a VTEP. */
export function packagesFor(
    os: OsFamily,
    central: boolean,
    chassis: boolean,
    datapathType: DatapathType = "system",
    vtep = false,
    ipsec = false,
): string[] {
    // nftables: the userspace datapath keeps the kernel's IP stack off NICs it takes over.
    const ovs = [
        ...(os === "debian" ? ["openvswitch-common", "openvswitch-switch"] : ["openvswitch"]),
        ...(datapathType === "netdev" ? ["nftables"] : []),
    ];
    const ovnCommon = os === "debian" ? ["ovn-common"] : ["ovn"];
    if (vtep) return [...ovs, ...VTEP_PACKAGES];
    // Debian's and Fedora's openvswitch-ipsec carry ovs-monitor-ipsec and depend on the IKE daemon
    // their ovs-ctl unit starts it with (Debian: strongswan; Fedora, RHEL: libreswan).
    return [
        ...ovs,
        ...(central || chassis ? ovnCommon : []),
        ...(central ? ["ovn-central"] : []),
        ...(chassis ? ["ovn-host"] : []),
        ...(chassis && ipsec ? IPSEC_PACKAGES[os] : []),
    ];
}

/** Kubernetes enabled: ovnkube realises the topology; disabled: the project's providers write it. */
export const topologyWriter = (cfg: Pick<StackConfig, "kubernetes">): TopologyWriter => (cfg.kubernetes.enabled ? "ovnkube" : "pulumi");

/** The mirror's file for an upstream CRD URL: the same name, less a template suffix (v1.2's `.yaml.j2`). */
export function crdUrl(upstream: string, mirror?: string): string {
    return mirror ? mirror + upstream.slice(upstream.lastIndexOf("/") + 1).replace(/\.j2$/, "") : upstream;
}

export function buildClusterModel(cfg: StackConfig): ClusterModel & { plan: AddressPlan } {
    const writer = topologyWriter(cfg);
    const architecture = writer === "ovnkube" ? cfg.ovnkube.architecture : "centralized";
    const interconnect = architecture === "interconnect";
    const k8sNodes = cfg.nodes.filter(isK8sNode);
    const gatewayNodes = cfg.nodes.filter((n) => n.gateway);
    // ovnkube runs a gateway router on every node and places its join address by node-id, which it
    // allocates from a bounded range: the plan gives every node a place in that range.
    const plan = planAddresses({
        families: cfg.ipFamilies.map((_, k) => ({
            clusterSubnet: cfg.clusterSubnets[k],
            hostSubnetLength: cfg.hostSubnetLengths[k],
            joinSubnet: cfg.joinSubnets[k],
        })),
        nodes: k8sNodes.map((n) => ({ name: n.name, subnets: n.subnets })),
        gateways: (writer === "ovnkube" ? k8sNodes : gatewayNodes).map((n) => n.name),
        maxJoinOffset: writer === "ovnkube" ? MAX_OVNKUBE_NODE_ID : undefined,
    });

    // The first central bootstraps the raft clusters when there are several; clients list them all.
    const centrals = cfg.nodes.filter((n) => n.roles.includes("central"));
    const central = centrals[0];
    const { protocol, nbPort, sbPort, nbRaftPort, sbRaftPort } = cfg.ovnTransport;
    const ssl = protocol === "ssl";
    // Interconnect: every client of a zone's databases is on that zone's host.
    const nbAddress = interconnect ? names.LOCAL_NB : centrals.map((c) => `${protocol}:${c.tunnelIp}:${nbPort}`).join(",");
    const sbAddress = interconnect ? names.LOCAL_SB : centrals.map((c) => `${protocol}:${c.tunnelIp}:${sbPort}`).join(",");
    const zoneOf = (n: Node) => (interconnect && isK8sNode(n) ? n.name : undefined);
    const k8sApiServer = cfg.apiServer.url.replace(/\/$/, "");
    const vtepNodes = cfg.nodes.filter(isVtep);
    // Every chassis must also speak VXLAN to reach a VTEP (ovn-controller's preferred encap).
    const encapTypes = vtepNodes.length > 0 && cfg.encapType !== names.VTEP_ENCAP ? `${cfg.encapType},${names.VTEP_ENCAP}` : cfg.encapType;

    const vteps = new Map(vtepNodes.map((n) => [n.name, vtepModel(n, sbAddress)]));
    // Validation admits it only with interconnect in ovnkube mode (../plan/checks/ipsec.ts).
    const ipsec = interconnect && cfg.ovnkube.ipsec;
    // The image's OVN: the hosts install Open vSwitch only (../plan/checks/ovnSource.ts admits it with interconnect).
    const ovnSource = writer === "ovnkube" ? cfg.ovnkube.ovnSource : "packages";
    const hostOvn = ovnSource === "packages";
    const hosts: HostModel[] = cfg.nodes.map((n) => ({
        name: n.name,
        roles: n.roles,
        ssh: { host: n.address, port: n.port, user: n.user, hostKey: n.hostKey, insecureIgnoreHostKey: cfg.ssh.insecureIgnoreHostKey },
        os: n.os,
        packages: packagesFor(
            n.os,
            hostOvn && (centrals.includes(n) || zoneOf(n) !== undefined),
            hostOvn && isChassis(n),
            n.datapathType,
            isVtep(n),
            ipsec,
        ),
        isCentral: centrals.includes(n),
        ...(zoneOf(n) ? { zone: zoneOf(n) } : {}),
        isChassis: isChassis(n),
        datapathType: n.datapathType,
        ipsec,
        chassis: isChassis(n)
            ? {
                  writer,
                  encapIp: n.tunnelIp,
                  encapType: encapTypes,
                  bridgeMappings: n.gateway ? `${names.PHYSNET}:${n.gateway.bridge}` : undefined,
                  k8sApiServer,
                  controller: ovnSource,
                  tunnelBridge: tunnelBridgeOf(n, n.datapathType),
              }
            : undefined,
        ...(vteps.has(n.name) ? { vtep: vteps.get(n.name)! } : {}),
    }));

    const clusterRouterJoin = ifAddress(plan.clusterRouterJoinIp, plan.joinPrefix);
    const nodeNetworks: NodeNetworkModel[] = k8sNodes.map((n) => nodeNetwork(n, plan, cfg));
    const gateways: GatewayModel[] = gatewayNodes.map((n) => gatewayModel(n, plan, cfg));

    return {
        writer,
        ipFamilies: cfg.ipFamilies,
        clusterSubnets: cfg.clusterSubnets,
        serviceSubnets: cfg.serviceSubnets,
        joinSubnets: cfg.joinSubnets,
        mtu: cfg.mtu,
        encapType: cfg.encapType,
        nbAddress,
        sbAddress,
        architecture,
        ...(central
            ? {
                  central: {
                      host: central.name,
                      nbListener: `p${protocol}:${nbPort}:${central.tunnelIp}`,
                      sbListener: `p${protocol}:${sbPort}:${central.tunnelIp}`,
                      ssl,
                      // Absent with one central, so a single-central stack's model (and its scripts) stay as they were.
                      ...(centrals.length > 1
                          ? {
                                cluster: {
                                    members: centrals.map((c) => ({ host: c.name, ip: c.tunnelIp! })),
                                    protocol,
                                    nbPort,
                                    sbPort,
                                    nbRaftPort,
                                    sbRaftPort,
                                },
                            }
                          : {}),
                  },
              }
            : {}),
        hosts,
        packages: cfg.packages,
        ovnSource,
        ...(ovnSource === "image"
            ? { imageOvn: { version: cfg.ovnkube.imageOvnVersion, minimumOvs: minimumOvsFor(cfg.ovnkube.imageOvnVersion)! } }
            : {}),
        clusterRouter: {
            name: names.CLUSTER_ROUTER,
            joinSwitch: names.JOIN_SWITCH,
            joinPort: names.routerToJoin(names.CLUSTER_ROUTER),
            joinPeerPort: names.joinToRouter(names.CLUSTER_ROUTER),
            joinAddress: clusterRouterJoin,
            clusterSubnet: cfg.clusterSubnets[0],
        },
        nodeNetworks,
        gateways,
        vteps: [...vteps.values()],
        kube: {
            namespace: cfg.kubernetes.namespace,
            version: cfg.ovnkube.version,
            architecture: cfg.ovnkube.architecture,
            image: cfg.ovnkube.image,
            crdUrls: releaseCrdUrls(cfg.ovnkube.version, featureSettings(cfg.ovnkube.features)).map((u) =>
                crdUrl(u, cfg.ovnkube.crdMirror),
            ),
            gatewayMode: cfg.ovnkube.gatewayMode,
            ovnSource,
            ...(ovnSource === "image" && !interconnect
                ? {
                      centralDatabases: {
                          members: centrals.map((c) => ({ node: c.name, ip: c.tunnelIp })),
                          nbPort,
                          sbPort,
                          ...(centrals.length > 1 ? { raft: { nbPort: nbRaftPort, sbPort: sbRaftPort } } : {}),
                      },
                  }
                : {}),
            features: featureSettings(cfg.ovnkube.features),
            egressIpHealthCheckPort: cfg.ovnkube.features.egressIpHealthCheckPort,
            ipFamilies: cfg.ipFamilies,
            transitSubnets: cfg.transitSubnets,
            masqueradeSubnets: cfg.masqueradeSubnets,
            ...(cfg.ovnkube.identity.enabled
                ? {
                      identity: {
                          webhookAddress: cfg.ovnkube.identity.webhookAddress,
                          listen: cfg.ovnkube.identity.webhookAddress === "localhost" ? ("localhost" as const) : ("node" as const),
                          bootstrapKubeconfig: cfg.ovnkube.identity.bootstrapKubeconfig,
                      },
                  }
                : {}),
            masterNodes: cfg.nodes.filter((n) => n.roles.includes("master")).map((n) => n.name),
            secureApi: k8sApiServer.startsWith("https://"),
            joinSubnets: cfg.joinSubnets,
            clusterRouterJoin: plan.families.map((f) => ifAddress(f.clusterRouterJoinIp, f.joinPrefix)),
            // Only ovnkube mode deploys ovnkube, so only it has a plan to feed it.
            nodes: writer === "ovnkube" ? k8sNodes.map((n) => ovnkubeNode(n, plan, interconnect ? cfg.transitSubnets : undefined)) : [],
            nodeGroups: writer === "ovnkube" ? ovnkubeNodeGroups(k8sNodes) : [],
            config: {
                ...(interconnect ? {} : { OvnNorth: nbAddress, OvnSouth: sbAddress }),
                k8s_apiserver: k8sApiServer,
                // Dual stack: the chart's comma lists, each cluster subnet with its own node subnet length.
                ...(cfg.ipFamilies.length === 1
                    ? { net_cidr: cfg.clusterSubnets[0], host_subnet_length: String(cfg.hostSubnetLengths[0]) }
                    : { net_cidr: cfg.clusterSubnets.map((c, k) => `${c}/${cfg.hostSubnetLengths[k]}`).join(",") }),
                svc_cidr: cfg.serviceSubnets.join(","),
                mtu: String(cfg.mtu),
                encap_type: cfg.encapType,
            },
        },
        plan,
    };
}

function nodeNetwork(n: Node, plan: AddressPlan, cfg: StackConfig): NodeNetworkModel {
    const subnet = parseNetwork(plan.subnets[n.name]);
    return {
        node: n.name,
        switchName: n.name,
        subnet: subnet.text,
        routerPort: names.routerToSwitch(n.name),
        routerPeerPort: names.switchToRouter(n.name),
        router: ifAddress(addressAt(subnet, 1), subnet.prefix),
        mgmtPort: names.mgmtPortName(n.name),
        mgmtInterface: names.mgmtInterfaceName(n.name),
        mgmt: ifAddress(addressAt(subnet, 2), subnet.prefix),
        clusterSubnet: cfg.clusterSubnets[0],
        clusterRouter: names.CLUSTER_ROUTER,
        mtu: cfg.mtu,
    };
}

function vtepModel(n: Node, sbAddress: string): VtepModel {
    const physicalSwitch = n.vtep!.physicalSwitch ?? n.name;
    const bindings = n.vtep!.ports.flatMap((p) => p.bindings.map((b) => ({ port: p.name, vlan: b.vlan, logicalSwitch: b.logicalSwitch })));
    const switchNames = [...new Set(bindings.map((b) => b.logicalSwitch))];
    return {
        host: n.name,
        physicalSwitch,
        tunnelIp: n.tunnelIp,
        datapathType: n.datapathType,
        ...(tunnelBridgeOf(n, n.datapathType) ? { tunnelBridge: tunnelBridgeOf(n, n.datapathType)! } : {}),
        sbAddress,
        ports: n.vtep!.ports.map((p) => p.name),
        bindings,
        switchPorts: switchNames.map((s) => ({ switchName: s, port: names.vtepPort(physicalSwitch, s) })),
    };
}

function gatewayModel(n: Node, plan: AddressPlan, cfg: StackConfig): GatewayModel {
    const g = n.gateway!;
    const [physIp, physPrefix] = g.physicalIp.split("/");
    return {
        node: n.name,
        router: names.gatewayRouter(n.name),
        joinPort: names.routerToJoin(names.gatewayRouter(n.name)),
        joinPeerPort: names.joinToRouter(names.gatewayRouter(n.name)),
        join: ifAddress(plan.gatewayJoinIps[n.name], plan.joinPrefix),
        clusterRouterJoinIp: plan.clusterRouterJoinIp,
        externalSwitch: names.externalSwitch(n.name),
        externalPort: names.routerToExternal(n.name),
        externalPeerPort: names.externalToRouter(n.name),
        uplinkPort: names.uplinkPort(g.bridge!, n.name),
        physnet: names.PHYSNET,
        // The MAC here is only the derived default: the gateway router's external port takes the
        // host NIC's real MAC, read on the host (host and router share IP and MAC on a shared NIC).
        physical: ifAddress(physIp, Number(physPrefix)),
        defaultGateway: g.defaultGateway,
        rampoutSubnets: g.rampoutSubnets ?? [],
        clusterSubnet: cfg.clusterSubnets[0],
        clusterRouter: names.CLUSTER_ROUTER,
        mode: g.mode,
        interface: g.interface,
        bridge: g.bridge!,
    };
}

/** The gateway bridge ovnkube-node is pointed at: the shared gateway's, else the userspace tunnel bridge. */
function gatewayBridgeOf(n: Node): string | undefined {
    if (n.gateway?.mode === "shared") return n.gateway.bridge;
    return tunnelBridgeOf(n, n.datapathType)?.bridge;
}

function ovnkubeNode(n: Node, plan: AddressPlan, transitSubnets?: readonly string[]): OvnkubeNodeModel {
    // The join offset is the node-id: ovnkube computes each family's join address as base + id, and
    // the cluster router holds offset 1.
    const nodeId = plan.joinOffsets[n.name];
    // The cluster manager gives the transit port base + node-id too (zone_cluster_controller.go).
    const transit = transitSubnets?.map((t) => ifAddressAt(t, nodeId));
    // The gateway bridge's address of each family: the shared gateway's physical IP for its family, else the node's own.
    const physical = n.gateway?.physicalIp.split("/")[0];
    return {
        name: n.name,
        subnets: plan.families.map((f) => f.subnets[n.name]),
        nodeId,
        gatewayRouterJoin: plan.families.map((f) => ifAddress(f.gatewayJoinIps[n.name], f.joinPrefix)),
        ...(transit ? { transit } : {}),
        encapIp: n.tunnelIp,
        gatewayIps: n.nodeIps.map((ip) => (physical && familyOf(physical) === familyOf(ip) ? physical : ip)),
        ...(n.egressAssignable ? { egressAssignable: true } : {}),
    };
}

/**
 * `ovnkube-node-<bridge|default>[-<next hop>]`, as a DNS-1123 label (a DaemonSet's name): bridge
 * names may hold upper case and `_`, which become lower case and `-`.
 */
function nodeGroupName(g: Pick<OvnkubeNodeGroup, "gatewayInterface" | "gatewayNexthop">): string {
    const parts = [names.OVNKUBE_NODE, g.gatewayInterface ?? "default", ...(g.gatewayNexthop ? [g.gatewayNexthop] : [])];
    return parts
        .join("-")
        .toLowerCase()
        .replace(/[^a-z0-9-]+/g, "-")
        .replace(/-+/g, "-")
        .replace(/-$/, "");
}

/** Nodes grouped by the ovnkube-node flags that differ between them, in config order. */
export function ovnkubeNodeGroups(k8sNodes: readonly Node[]): OvnkubeNodeGroup[] {
    const groups = new Map<string, OvnkubeNodeGroup>();
    for (const n of k8sNodes) {
        const gatewayInterface = gatewayBridgeOf(n);
        const gatewayNexthop = n.gateway?.mode === "shared" ? n.gateway.defaultGateway : undefined;
        const key = `${gatewayInterface ?? ""}|${gatewayNexthop ?? ""}`;
        const group = groups.get(key) ?? {
            name: "",
            nodes: [],
            ...(gatewayInterface ? { gatewayInterface } : {}),
            ...(gatewayNexthop ? { gatewayNexthop } : {}),
        };
        group.nodes.push(n.name);
        groups.set(key, group);
    }
    const all = [...groups.values()];
    // One group keeps the seeds' name; several are named by what sets them apart, which stays
    // stable as nodes come and go.
    for (const g of all) g.name = all.length === 1 ? names.OVNKUBE_NODE : nodeGroupName(g);
    return all;
}
