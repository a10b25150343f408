// Models for the host-script tests: Debian and RHEL hosts, tcp and ssl centrals, shared and
// dedicated gateways. Built by hand (not from the config layer) so a test can bend one field.
import type { PackagesConfig } from "../../components/config/types";
import type { CentralModel, GatewayModel, HostModel, NodeNetworkModel } from "../../components/model/types";
import { nicBridge } from "../../components/model/names";

export function hostModel(over: Partial<HostModel> = {}): HostModel {
    return {
        name: "node1",
        roles: ["node", "gateway"],
        ssh: { host: "10.0.0.11", port: 22, user: "root", insecureIgnoreHostKey: true },
        os: "debian",
        packages: ["openvswitch-common", "openvswitch-switch", "ovn-common", "ovn-host"],
        isCentral: false,
        isChassis: true,
        datapathType: "netdev",
        ipsec: false,
        chassis: {
            writer: "pulumi",
            encapIp: "10.0.0.11",
            encapType: "geneve",
            bridgeMappings: "physnet:breth0",
            k8sApiServer: "http://10.0.0.1:8080",
            controller: "packages",
        },
        ...over,
    };
}

export const rhelHost = (): HostModel =>
    hostModel({
        name: "rhel1",
        os: "rhel",
        packages: ["openvswitch", "ovn", "ovn-host"],
        datapathType: "system",
        chassis: {
            writer: "pulumi",
            encapIp: "10.0.0.12",
            encapType: "vxlan",
            k8sApiServer: "https://api.example.com:6443",
            controller: "packages",
        },
    });

export function centralModel(ssl = false, ip = "10.0.0.1"): CentralModel {
    const proto = ssl ? "pssl" : "ptcp";
    return { host: "central", nbListener: `${proto}:6641:${ip}`, sbListener: `${proto}:6642:${ip}`, ssl };
}

/** Three centrals forming NB and SB raft clusters (the first creates them). */
export function clusteredCentralModel(ssl = false): CentralModel {
    const protocol = ssl ? "ssl" : "tcp";
    const members = [1, 2, 3].map((i) => ({ host: `central${i}`, ip: `10.0.0.${i}` }));
    return {
        ...centralModel(ssl),
        host: "central1",
        cluster: { members, protocol, nbPort: 6641, sbPort: 6642, nbRaftPort: 6643, sbRaftPort: 6644 },
    };
}

export function nodeNetworkModel(over: Partial<NodeNetworkModel> = {}): NodeNetworkModel {
    return {
        node: "node1",
        switchName: "node1",
        subnet: "10.128.1.0/24",
        routerPort: "rtos-node1",
        routerPeerPort: "stor-node1",
        router: { ip: "10.128.1.1", cidr: "10.128.1.1/24", mac: "0a:58:0a:80:01:01" },
        mgmtPort: "k8s-node1",
        mgmtInterface: "k8s-node1",
        mgmt: { ip: "10.128.1.2", cidr: "10.128.1.2/24", mac: "0a:58:0a:80:01:02" },
        clusterSubnet: "10.128.0.0/14",
        clusterRouter: "ovn_cluster_router",
        mtu: 1400,
        ...over,
    };
}

export function gatewayModel(mode: "shared" | "dedicated" = "shared", over: Partial<GatewayModel> = {}): GatewayModel {
    const nic = mode === "shared" ? "eth0" : "eth1";
    const bridge = nicBridge(nic);
    return {
        node: "node1",
        router: "GR_node1",
        joinPort: "rtoj-GR_node1",
        joinPeerPort: "jtor-GR_node1",
        join: { ip: "100.64.0.2", cidr: "100.64.0.2/16", mac: "0a:58:64:40:00:02" },
        clusterRouterJoinIp: "100.64.0.1",
        externalSwitch: "ext_node1",
        externalPort: "rtoe-GR_node1",
        externalPeerPort: "etor-GR_node1",
        uplinkPort: `${bridge}_node1`,
        physnet: "physnet",
        physical: { ip: "10.0.0.11", cidr: "10.0.0.11/24", mac: "0a:58:0a:00:00:0b" },
        defaultGateway: "10.0.0.254",
        rampoutSubnets: [],
        clusterSubnet: "10.128.0.0/14",
        clusterRouter: "ovn_cluster_router",
        mode,
        interface: nic,
        bridge,
        ...over,
    };
}

export const packagesConfigs: Record<string, PackagesConfig> = {
    plain: {},
    pinned: { openvswitchVersion: "3.1.0-2+deb12u1", ovnVersion: "23.03.1-1~deb12u2" },
    repo: {
        repository: { name: "ovs-lab", url: "https://packages.example.org/ovs", apt: { suite: "bookworm", components: "main contrib" } },
    },
    skip: { skip: true },
};

/** Recognisable fake secrets: the tests assert none of them ever appears in a script. */
export const SECRETS = {
    token: "tok-3f9a1c7e5b2d4f60-SECRET",
    ca: "-----BEGIN CERTIFICATE-----\nMIIBfakeCAcertSECRET+/==\n-----END CERTIFICATE-----\n",
    key: "-----BEGIN PRIVATE KEY-----\nMIIEfakeKEYSECRET\n-----END PRIVATE KEY-----\n",
    cert: "-----BEGIN CERTIFICATE-----\nMIIBfakeCERTSECRET\n-----END CERTIFICATE-----\n",
};
