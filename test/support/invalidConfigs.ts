// Invalid stack configs: a mutation of the dev stack (and of the plain values of its secrets), the
// config path it must be reported at, and optionally the reason.
import { generateKeyPairSync } from "node:crypto";
import type { SecretTexts } from "../../components/plan/checks/keyMaterial";
import { SECRET_KEYS } from "../../components/config/types";
import { stackConfig } from "../../lab/harness/configs";
import { encryptedSshKey, kubeconfigFor, otherPki, publicLine, rsaKeyPair, testSecretTexts } from "../../lab/harness/secretMaterial";

export type Mutation = (c: Record<string, any>, s: SecretTexts) => void;
/** A change of shape that several cases build on. */
type Shape = (c: Record<string, any>) => void;

/** A secret set in the stack (its value is in the secrets' plain values). */
const SET = { secure: "v1:test" };

/** The dev cluster in ovnkube mode with the default architecture, interconnect: a shared gateway, no central, an https API server and a kubeconfig. */
export const interconnect: Shape = (c) => {
    c.kubernetes = { enabled: true };
    c.nodes[2].gateway.mode = "shared";
    c.nodes[0].roles = ["master"];
    c.apiServer.url = "https://10.0.0.10:6443";
    c.kubeconfig = SET;
};

/** Pulumi mode with an https API server, so the API token and CA are secrets of the stack. */
const https: Shape = (c) => {
    c.apiServer.url = "https://10.0.0.10:6443";
    c.k8sApiToken = SET;
    c.k8sCaCertificate = SET;
};

/** OVN over SSL, with its three secrets. */
const ssl: Shape = (c) => {
    c.ovnTransport = { protocol: "ssl" };
    for (const k of ["ovnSslPrivateKey", "ovnSslCertificate", "ovnSslCaCertificate"]) c[k] = SET;
};

/** A VTEP gateway (fourth node) binding VLAN 100 of eth1 to kube-minion1's switch, and then these bindings. */
const vtep =
    (more: { vlan: number; logicalSwitch: string }[] = [], node: Record<string, any> = {}): Shape =>
    (c) =>
        c.nodes.push({
            name: "tor1",
            address: "10.0.0.20",
            roles: ["vtep"],
            hostKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ7N7bvlg8vv0BoBBSy8J6wUnfGkbkoAi9kT6iWUu2jQ tor1",
            vtep: { ports: [{ name: "eth1", bindings: [{ vlan: 100, logicalSwitch: "kube-minion1" }, ...more] }] },
            ...node,
        });

/** All three dev nodes central: clustered NB and SB with raft ports. */
const clustered: Shape = (c) => {
    for (const n of c.nodes.slice(1)) n.roles.push("central");
};

/** A second gateway on nodes[1], on the same LAN and next hop as nodes[2]'s, with its own bridge. */
const secondSharedGateway =
    (bridge: string, other: string): Mutation =>
    (c) => {
        interconnect(c);
        c.nodes[1].roles = ["node", "gateway"];
        c.nodes[1].gateway = { mode: "shared", interface: "eth1", bridge, physicalIp: "10.33.74.139/24", defaultGateway: "10.33.74.253" };
        c.nodes[2].gateway.bridge = other;
    };

export const INVALID: Array<[string, Mutation, string, RegExp?]> = [
    ["missing cluster subnet", (c) => delete c.clusterSubnet, "clusterSubnet", /required/],
    ["cluster subnet not a CIDR", (c) => (c.clusterSubnet = "192.168.0.0"), "clusterSubnet"],
    [
        "cluster subnet host bits set",
        (c) => (c.clusterSubnet = "192.168.3.0/16"),
        "clusterSubnet",
        /not a network address.*192\.168\.0\.0\/16/,
    ],
    ["octet out of range", (c) => (c.serviceSubnet = "172.300.0.0/16"), "serviceSubnet"],
    ["prefix out of range", (c) => (c.joinSubnet = "100.64.0.0/33"), "joinSubnet"],
    ["service overlaps cluster", (c) => (c.serviceSubnet = "192.168.128.0/17"), "serviceSubnet", /overlaps clusterSubnet/],
    ["join overlaps service", (c) => (c.joinSubnet = "172.30.0.0/24"), "joinSubnet", /overlaps serviceSubnet/],
    ["host subnet length not longer than cluster", (c) => (c.hostSubnetLength = 16), "hostSubnetLength"],
    ["host subnet length out of range", (c) => (c.hostSubnetLength = 31), "hostSubnetLength"],
    ["node subnet outside cluster", (c) => (c.nodes[1].subnet = "10.1.0.0/24"), "nodes[1].subnet", /not inside clusterSubnet/],
    ["node subnets overlap", (c) => (c.nodes[1].subnet = "192.168.1.0/24"), "nodes[1].subnet", /overlaps nodes\[0\]\.subnet/],
    ["node subnet not a network", (c) => (c.nodes[1].subnet = "192.168.2.7/24"), "nodes[1].subnet", /network address/],
    ["duplicate node name", (c) => (c.nodes[2].name = "kube-minion1"), "nodes[2].name", /already used by nodes\[1\]/],
    ["upper-case node name", (c) => (c.nodes[1].name = "Kube-Minion1"), "nodes[1].name"],
    ["node name with shell metacharacters", (c) => (c.nodes[1].name = "a;rm -rf /"), "nodes[1].name"],
    ["node name too long", (c) => (c.nodes[1].name = "a".repeat(64)), "nodes[1].name"],
    ["no central", (c) => (c.nodes[0].roles = ["master"]), "nodes", /1, 3 or 5 nodes must have the role "central" \(found 0\)/],
    ["two centrals", (c) => (c.nodes[1].roles = ["central", "node"]), "nodes", /found 2\): .*odd number of members/],
    // Clustered centrals (all three dev nodes central).
    [
        "clustered centrals on one address",
        (c) => {
            for (const n of c.nodes.slice(1)) n.roles.push("central");
            c.nodes[2].tunnelIp = "10.0.0.11";
        },
        "nodes[2].tunnelIp",
        /10\.0\.0\.11 is already nodes\[1\]\.address: two nodes would answer/,
    ],
    [
        "raft port equal to the NB port",
        (c) => {
            for (const n of c.nodes.slice(1)) n.roles.push("central");
            c.ovnTransport = { nbRaftPort: 6641 };
        },
        "ovnTransport.nbRaftPort",
        /6641 is also nbPort: both listen on this host/,
    ],
    [
        "SB raft port equal to the NB raft port",
        (c) => {
            for (const n of c.nodes.slice(1)) n.roles.push("central");
            c.ovnTransport = { sbRaftPort: 6643 };
        },
        "ovnTransport.sbRaftPort",
        /is also nbRaftPort/,
    ],
    [
        "raft port is a member's SSH port",
        (c) => {
            for (const n of c.nodes.slice(1)) n.roles.push("central");
            c.nodes[2].port = 6644;
        },
        "ovnTransport.sbRaftPort",
        /6644 is also the SSH port of nodes\[2\]/,
    ],
    [
        "clustered central on rhel",
        (c) => {
            for (const n of c.nodes.slice(1)) n.roles.push("central");
            c.nodes[1].os = "rhel";
        },
        "nodes[1].os",
        /debian hosts only/,
    ],
    ["no master", (c) => (c.nodes[0].roles = ["central", "node"]), "nodes", /role "master"/],
    ["unknown role", (c) => (c.nodes[1].roles = ["worker"]), "nodes[1].roles[0]", /must be one of/],
    ["gateway role without gateway block", (c) => delete c.nodes[2].gateway, "nodes[2].gateway", /required for the role/],
    ["gateway block without role", (c) => (c.nodes[2].roles = ["node"]), "nodes[2].gateway", /lacks the role/],
    ["gateway-only node", (c) => (c.nodes[2].roles = ["gateway"]), "nodes[2].roles", /also be a "node" or "master"/],
    [
        "default gateway outside physical subnet",
        (c) => (c.nodes[2].gateway.defaultGateway = "10.33.75.1"),
        "nodes[2].gateway.defaultGateway",
        /not in the subnet/,
    ],
    [
        "physical IP is the network address",
        (c) => (c.nodes[2].gateway.physicalIp = "10.33.74.0/24"),
        "nodes[2].gateway.physicalIp",
        /is the network address of the LAN of nodes\[2\]\.gateway/,
    ],
    [
        "physical IP overlaps the cluster",
        (c) => {
            c.nodes[2].gateway.physicalIp = "192.168.9.9/24";
            c.nodes[2].gateway.defaultGateway = "192.168.9.1";
        },
        "nodes[2].gateway.physicalIp",
        /overlaps clusterSubnet/,
    ],
    ["interface name too long", (c) => (c.nodes[2].gateway.interface = "enp0s31f6abcdefgh"), "nodes[2].gateway.interface"],
    ["interface name with a slash", (c) => (c.nodes[2].gateway.interface = "eth0/1"), "nodes[2].gateway.interface"],
    ["interface name with command substitution", (c) => (c.nodes[2].gateway.interface = "$(reboot)"), "nodes[2].gateway.interface"],
    ["default bridge name too long", (c) => (c.nodes[2].gateway.interface = "enp0s31f6abcde"), "nodes[2].gateway.bridge", /longer than 15/],
    ["bridge equals interface", (c) => (c.nodes[2].gateway.bridge = "eth1"), "nodes[2].gateway.bridge"],
    ["unknown gateway mode", (c) => (c.nodes[2].gateway.mode = "bridged"), "nodes[2].gateway.mode"],
    [
        "rampout subnet outside cluster",
        (c) => (c.nodes[2].gateway.rampoutSubnets = ["10.9.0.0/16"]),
        "nodes[2].gateway.rampoutSubnets[0]",
        /not inside/,
    ],
    ["MTU too small", (c) => (c.mtu = 100), "mtu"],
    ["MTU too large", (c) => (c.mtu = 65000), "mtu"],
    ["MTU not an integer", (c) => (c.mtu = 1400.5), "mtu", /integer/],
    ["unknown encap type", (c) => (c.encapType = "gre"), "encapType", /geneve, stt, vxlan/],
    ["unknown top-level key", (c) => (c.clusterSubnets = "10.0.0.0/8"), "clusterSubnets", /not a known setting/],
    ["address with shell metacharacters", (c) => (c.nodes[1].address = "10.0.0.11;id"), "nodes[1].address"],
    ["hostname address needs a tunnel IP", (c) => (c.nodes[1].address = "minion1.example.com"), "nodes[1].tunnelIp", /not an IP address/],
    ["duplicate tunnel IP", (c) => (c.nodes[2].tunnelIp = "10.0.0.11"), "nodes[2].tunnelIp", /10\.0\.0\.11 is already nodes\[1\]\.address/],
    ["missing host key", (c) => delete c.nodes[1].hostKey, "nodes[1].hostKey", /pin the host key/],
    ["malformed host key", (c) => (c.nodes[1].hostKey = "ssh-ed25519 AAAA$(id)"), "nodes[1].hostKey"],
    ["SSH port out of range", (c) => (c.nodes[1].port = 70000), "nodes[1].port"],
    ["https API without token", (c) => (c.apiServer.url = "https://10.0.0.10:6443"), "k8sApiToken", /secret.*https/],
    ["API URL with a path and a quote", (c) => (c.apiServer.url = "http://10.0.0.10:8080/'x"), "apiServer.url"],
    ["ssl transport without keys", (c) => (c.ovnTransport = { protocol: "ssl" }), "ovnSslPrivateKey", /ssl/],
    ["NB and SB on one port", (c) => (c.ovnTransport = { nbPort: 6641, sbPort: 6641 }), "ovnTransport.sbPort"],
    ["missing SSH key secret", (c) => delete c.sshPrivateKey, "sshPrivateKey", /required/],
    ["empty secret", (c) => (c.sshPrivateKey = ""), "sshPrivateKey"],
    [
        "too many nodes for the cluster subnet",
        (c) => {
            c.clusterSubnet = "192.168.0.0/23";
            delete c.nodes[0].subnet;
            delete c.nodes[1].subnet;
        },
        "nodes",
        /do not fit/,
    ],
    ["image with spaces", (c) => (c.ovnkube = { image: "ovn kube" }), "ovnkube.image"],
    [
        "the moved setting ovnkubeImage",
        (c) => (c.ovnkubeImage = "ghcr.io/ovn-org/ovn-kubernetes/ovn-kube-ubuntu:release-1.0"),
        "ovnkubeImage",
        /not a known setting: it is ovnkube\.image now/,
    ],
    [
        "ovn-kubernetes 1.0",
        (c) => (c.ovnkube = { version: "1.0" }),
        "ovnkube.version",
        /"1\.0" is not a supported ovn-kubernetes release: upstream maintains only 1\.3 and 1\.2/,
    ],
    [
        "unknown ovnkube architecture",
        (c) => (c.ovnkube = { architecture: "distributed" }),
        "ovnkube.architecture",
        /interconnect, centralized/,
    ],
    [
        "CRD mirror that is no directory URL",
        (c) => (c.ovnkube = { crdMirror: "https://mirror.example.com/crds" }),
        "ovnkube.crdMirror",
        /URL of a directory, ending in \//,
    ],
    [
        "CRD mirror over ftp",
        (c) => (c.ovnkube = { crdMirror: "ftp://mirror.example.com/crds/" }),
        "ovnkube.crdMirror",
        /http\(s\):\/\/ or file:\/\/\//,
    ],
    // Node identities: the API server calls ovnkube-identity where it runs, on a master.
    [
        "identity webhook address that is no master's",
        (c) => {
            interconnect(c);
            c.ovnkube = { identity: { webhookAddress: "10.0.0.11" } };
        },
        "ovnkube.identity.webhookAddress",
        /10\.0\.0\.11 is no master's address: ovnkube-identity runs on the masters \(10\.0\.0\.10\)/,
    ],
    [
        "identity webhook address with shell metacharacters",
        (c) => (c.ovnkube = { identity: { webhookAddress: "localhost;id" } }),
        "ovnkube.identity.webhookAddress",
        /IPv4 or IPv6 address or DNS name/,
    ],
    [
        "relative bootstrap kubeconfig",
        (c) => (c.ovnkube = { identity: { bootstrapKubeconfig: "etc/kubernetes/kubelet.conf" } }),
        "ovnkube.identity.bootstrapKubeconfig",
        /must be an absolute path/,
    ],
    [
        "bootstrap kubeconfig in the host's root",
        (c) => {
            interconnect(c);
            c.ovnkube = { identity: { bootstrapKubeconfig: "/kubelet.conf" } };
        },
        "ovnkube.identity.bootstrapKubeconfig",
        /mounts this file's directory, which is the host's root/,
    ],
    [
        "bootstrap kubeconfig in a directory ovnkube-node mounts already",
        (c) => {
            interconnect(c);
            c.ovnkube = { identity: { bootstrapKubeconfig: "/etc/openvswitch/kubelet.conf" } };
        },
        "ovnkube.identity.bootstrapKubeconfig",
        /is or holds \/etc\/openvswitch, a directory it mounts already/,
    ],
    [
        "unknown key under ovnkube.identity",
        (c) => (c.ovnkube = { identity: { webhookPort: 9443 } }),
        "ovnkube.identity.webhookPort",
        /not a known setting/,
    ],
    // The release's features (components/config/features.ts, docs/features.md).
    [
        "a feature of a later release",
        (c) => {
            interconnect(c);
            c.ovnkube = { version: "1.2", features: { allowIcmpNetworkPolicy: true } };
        },
        "ovnkube.features.allowIcmpNetworkPolicy",
        /ovn-kubernetes 1\.2 has no --allow-icmp-network-policy: it came with 1\.3; set ovnkube\.version: "1\.3"/,
    ],
    [
        "EVPN on 1.2",
        (c) => {
            interconnect(c);
            c.ovnkube = { version: "1.2", features: { evpn: true } };
        },
        "ovnkube.features.evpn",
        /ovn-kubernetes 1\.2 has no --enable-evpn: it came with 1\.3/,
    ],
    [
        "EVPN without route advertisements",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { evpn: true } };
        },
        "ovnkube.features.evpn",
        /needs ovnkube\.features\.routeAdvertisements, which is off/,
    ],
    [
        "route advertisements without FRR-k8s",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { routeAdvertisements: true } };
        },
        "ovnkube.features.routeAdvertisements",
        /needs FRR-k8s \(its frrconfigurations\.frrk8s\.metallb\.io CRD and daemon\), which this program does not deploy; remove it/,
    ],
    [
        "DNS names in egress firewalls without the DNSNameResolver CRD",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { dnsNameResolver: true } };
        },
        "ovnkube.features.dnsNameResolver",
        /needs the DNSNameResolver CRD \(dnsnameresolvers\.network\.openshift\.io\)/,
    ],
    [
        "DNS names in egress firewalls with the egress firewall off",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { dnsNameResolver: true, egressFirewall: false } };
        },
        "ovnkube.features.dnsNameResolver",
        /needs ovnkube\.features\.egressFirewall, which is off/,
    ],
    [
        "user-defined networks without multi-network",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { networkSegmentation: true } };
        },
        "ovnkube.features.networkSegmentation",
        /needs ovnkube\.features\.multiNetwork, which is off/,
    ],
    [
        "network connect without user-defined networks",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { multiNetwork: true, networkConnect: true } };
        },
        "ovnkube.features.networkConnect",
        /needs ovnkube\.features\.networkSegmentation, which is off/,
    ],
    [
        "network connect on 1.2",
        (c) => {
            interconnect(c);
            c.ovnkube = { version: "1.2", features: { multiNetwork: true, networkSegmentation: true, networkConnect: true } };
        },
        "ovnkube.features.networkConnect",
        /ovn-kubernetes 1\.2 has no --enable-network-connect: it came with 1\.3/,
    ],
    [
        "network connect in the centralized architecture",
        (c) => {
            interconnect(c);
            c.nodes[0].roles = ["central", "master"];
            c.ovnkube = { architecture: "centralized", features: { multiNetwork: true, networkSegmentation: true, networkConnect: true } };
        },
        "ovnkube.features.networkConnect",
        /works with the interconnect architecture only .*ovnkube\.architecture is centralized/,
    ],
    [
        "preconfigured UDN addresses in the centralized architecture",
        (c) => {
            interconnect(c);
            c.nodes[0].roles = ["central", "master"];
            c.ovnkube = {
                architecture: "centralized",
                features: { multiNetwork: true, networkSegmentation: true, preconfiguredUdnAddresses: true },
            };
        },
        "ovnkube.features.preconfiguredUdnAddresses",
        /works with the interconnect architecture only/,
    ],
    [
        "dynamic UDN allocation without user-defined networks",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { dynamicUdnAllocation: true } };
        },
        "ovnkube.features.dynamicUdnAllocation",
        /needs ovnkube\.features\.networkSegmentation, which is off/,
    ],
    [
        "persistent IPs without multi-network",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { persistentIps: true } };
        },
        "ovnkube.features.persistentIps",
        /needs ovnkube\.features\.multiNetwork, which is off/,
    ],
    [
        "multi-network policy without multi-network",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { multiNetworkPolicy: true } };
        },
        "ovnkube.features.multiNetworkPolicy",
        /needs ovnkube\.features\.multiNetwork, which is off/,
    ],
    [
        "a feature that is not a boolean",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { egressIp: "yes" } };
        },
        "ovnkube.features.egressIp",
        /boolean/,
    ],
    [
        "an unknown feature",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { ipsec: true } };
        },
        "ovnkube.features.ipsec",
        /not a known setting/,
    ],
    // Where OVN runs (components/plan/checks/ovnSource.ts, docs/modes.md#where-ovn-comes-from).
    [
        "OVN from the image in Pulumi mode",
        (c) => (c.ovnkube = { ovnSource: "image" }),
        "ovnkube.ovnSource",
        /image runs OVN in ovnkube's pods, and kubernetes\.enabled is false/,
    ],
    [
        "OVN from the image on a central that is no Kubernetes node",
        (c) => {
            interconnect(c);
            c.nodes[0].roles = ["central"];
            c.ovnkube = { architecture: "centralized", ovnSource: "image" };
        },
        "nodes[0].roles",
        /kube-master is a central and no Kubernetes node: with ovnkube\.ovnSource image its NB and SB run in a pod on it/,
    ],
    [
        "OVN from the image on centrals over SSL",
        (c) => {
            interconnect(c);
            ssl(c);
            c.nodes[0].roles = ["master", "central"];
            c.ovnkube = { architecture: "centralized", ovnSource: "image" };
        },
        "ovnTransport.protocol",
        /ssl keeps the centrals' keys on the hosts/,
    ],
    [
        "OVN from the image with IPsec",
        (c) => {
            interconnect(c);
            c.ovnkube = { ovnSource: "image", ipsec: true };
        },
        "ovnkube.ipsec",
        /with ovnkube\.ovnSource image the hosts have no OVN/,
    ],
    [
        "OVN from the image with the hosts' OVN pinned",
        (c) => {
            interconnect(c);
            c.ovnkube = { ovnSource: "image" };
            c.packages = { ovnVersion: "26.03.1-1" };
        },
        "packages.ovnVersion",
        /pins the hosts' OVN, and with ovnkube\.ovnSource image the hosts install none/,
    ],
    [
        "OVN from another image without its OVN version",
        (c) => {
            interconnect(c);
            c.ovnkube = { ovnSource: "image", image: "registry.example.com/ovn/ovn-kube:v1.3.0" };
        },
        "ovnkube.imageOvnVersion",
        /is required with ovnkube\.ovnSource image and an image other than the release's/,
    ],
    [
        "an image's OVN line the project does not know",
        (c) => {
            interconnect(c);
            c.ovnkube = { ovnSource: "image", imageOvnVersion: "27.03" };
        },
        "ovnkube.imageOvnVersion",
        /is 27\.03, an OVN line whose Open vSwitch needs the project does not know \(it knows 25\.09, 26\.03\)/,
    ],
    [
        "an image's OVN too old for the release",
        (c) => {
            interconnect(c);
            c.ovnkube = { ovnSource: "image", imageOvnVersion: "25.03" };
        },
        "ovnkube.imageOvnVersion",
        /is 25\.03, older than OVN 25\.09, whose schemas ovn-kubernetes 1\.3 needs/,
    ],
    [
        "the image's OVN version with OVN from the packages",
        (c) => {
            interconnect(c);
            c.ovnkube = { imageOvnVersion: "26.03" };
        },
        "ovnkube.imageOvnVersion",
        /applies to ovnkube\.ovnSource: image only; remove it/,
    ],
    [
        "an image's OVN version that is no version",
        (c) => {
            interconnect(c);
            c.ovnkube = { ovnSource: "image", imageOvnVersion: "latest" };
        },
        "ovnkube.imageOvnVersion",
    ],
    // IPsec (components/plan/checks/ipsec.ts, docs/features.md#ipsec).
    [
        "IPsec in Pulumi mode",
        (c) => (c.ovnkube = { ipsec: true }),
        "ovnkube.ipsec",
        /applies to ovnkube mode only, and kubernetes\.enabled is false/,
    ],
    [
        "IPsec with the centralized architecture",
        (c) => {
            interconnect(c);
            c.nodes[0].roles = ["master", "central"];
            c.ovnkube = { architecture: "centralized", ipsec: true };
        },
        "ovnkube.ipsec",
        /needs ovnkube\.architecture interconnect: the project writes NB_Global ipsec in the zones it starts/,
    ],
    [
        "IPsec with the userspace datapath on every host",
        (c) => {
            interconnect(c);
            c.datapathType = "netdev";
            for (const n of c.nodes) n.tunnelInterface = "eth1";
            c.ovnkube = { ipsec: true };
        },
        "datapathType",
        /netdev: the userspace datapath of kube-master, kube-minion1, kube-minion2 sends tunnel packets past the kernel's IPsec/,
    ],
    [
        "IPsec with the userspace datapath on one node",
        (c) => {
            interconnect(c);
            c.nodes[2].datapathType = "netdev";
            c.nodes[2].tunnelInterface = "eth1";
            c.ovnkube = { ipsec: true };
        },
        "nodes[2].datapathType",
        /use system, or remove ovnkube\.ipsec/,
    ],
    [
        "IPsec that is not a boolean",
        (c) => {
            interconnect(c);
            c.ovnkube = { ipsec: "on" };
        },
        "ovnkube.ipsec",
        /boolean/,
    ],
    [
        "an unknown gateway mode",
        (c) => {
            interconnect(c);
            c.ovnkube = { gatewayMode: "dedicated" };
        },
        "ovnkube.gatewayMode",
        /must be one of shared, local/,
    ],
    [
        "EgressIP health-check port out of range",
        (c) => {
            interconnect(c);
            c.ovnkube = { features: { egressIpHealthCheckPort: 70000 } };
        },
        "ovnkube.features.egressIpHealthCheckPort",
        /65535/,
    ],
    [
        "EgressIP health-check port is a node's SSH port",
        (c) => {
            interconnect(c);
            c.nodes[1].port = 9107;
        },
        "ovnkube.features.egressIpHealthCheckPort",
        /9107 is also the SSH port of nodes\[1\]: both listen on this host/,
    ],
    [
        "egress-assignable node that is no Kubernetes node",
        (c) => {
            interconnect(c);
            c.nodes.push({
                name: "ovn-central",
                address: "10.33.74.9",
                roles: ["central"],
                hostKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ7N7bvlg8vv0BoBBSy8J6wUnfGkbkoAi9kT6iWUu2jQ ovn-central",
                egressAssignable: true,
            });
        },
        "nodes[3].egressAssignable",
        /ovn-central is no Kubernetes node \(roles master or node\), so ovnkube gives it no gateway router/,
    ],
    [
        "egress-assignable node with EgressIP off",
        (c) => {
            interconnect(c);
            c.nodes[2].egressAssignable = true;
            c.ovnkube = { features: { egressIp: false } };
        },
        "nodes[2].egressAssignable",
        /ovnkube\.features\.egressIp is off, so nothing assigns egress IPs/,
    ],
    [
        "egress-assignable node in Pulumi mode",
        (c) => (c.nodes[2].egressAssignable = true),
        "nodes[2].egressAssignable",
        /applies to ovnkube mode only/,
    ],
    [
        "VTEP gateway in ovnkube mode",
        (c) => {
            interconnect(c);
            vtep()(c);
        },
        "nodes[3].roles",
        /VTEP gateways are Pulumi mode only/,
    ],
    [
        "VTEP binding to a switch the stack does not have",
        vtep([{ vlan: 200, logicalSwitch: "rack9" }]),
        "nodes[3].vtep.ports[0].bindings[1].logicalSwitch",
        /"rack9" is no logical switch of the stack/,
    ],
    [
        "VTEP port and VLAN bound twice",
        vtep([{ vlan: 100, logicalSwitch: "kube-master" }]),
        "nodes[3].vtep.ports[0].bindings[1].vlan",
        /VLAN 100 of port eth1 is already bound by bindings\[0\]/,
    ],
    ["VTEP VLAN id out of range", vtep([{ vlan: 4095, logicalSwitch: "kube-master" }]), "nodes[3].vtep.ports[0].bindings[1].vlan"],
    ["VTEP role without its settings", vtep([], { vtep: undefined }), "nodes[3].vtep", /required for the role "vtep"/],
    ["VTEP beside other roles", vtep([], { roles: ["vtep", "node"] }), "nodes[3].roles", /"vtep" must be the host's only role/],
    [
        "VTEP settings without the role",
        (c) => (c.nodes[1].vtep = { ports: [{ name: "eth1", bindings: [] }] }),
        "nodes[1].vtep",
        /lacks the role "vtep"/,
    ],
    ["VTEP on a RHEL host", vtep([], { os: "rhel" }), "nodes[3].os", /Debian's openvswitch-vtep/],
    [
        "VTEP with OVN over SSL",
        (c) => {
            ssl(c);
            vtep()(c);
        },
        "nodes[3].roles",
        /set ovnTransport.protocol: tcp/,
    ],
    ["userspace datapath without a tunnel interface", (c) => (c.datapathType = "netdev"), "nodes[1].tunnelInterface", /userspace tunnels/],
    ["tunnel interface with shell metacharacters", (c) => (c.nodes[1].tunnelInterface = "eth0;id"), "nodes[1].tunnelInterface"],
    ["package version with shell metacharacters", (c) => (c.packages = { ovnVersion: "1.0;id" }), "packages.ovnVersion"],
    [
        "dedicated gateway in ovnkube mode",
        (c) => (c.kubernetes = { enabled: true }),
        "nodes[2].gateway.mode",
        /deploys ovnkube's shared gateway only/,
    ],
    [
        "vxlan in ovnkube mode",
        (c) => {
            interconnect(c);
            c.encapType = "vxlan";
        },
        "encapType",
        /ovnkube sets every node's ovn-encap-type to geneve/,
    ],
    // Interconnect: every node its own zone, ovnkube's transit and masquerade networks beside the others.
    [
        "a central with interconnect",
        (c) => (c.kubernetes = { enabled: true, namespace: "ovn-kubernetes" }),
        "nodes[0].roles",
        /"central" has no place with ovnkube\.architecture interconnect/,
    ],
    [
        "transit subnet overlaps the cluster",
        (c) => {
            interconnect(c);
            c.transitSubnet = "192.168.128.0/17";
        },
        "transitSubnet",
        /192\.168\.128\.0\/17 overlaps clusterSubnet 192\.168\.0\.0\/16/,
    ],
    [
        "transit subnet overlaps the join subnet",
        (c) => {
            interconnect(c);
            c.transitSubnet = "100.64.128.0/17";
        },
        "transitSubnet",
        /overlaps joinSubnet/,
    ],
    // The dev gateway's LAN is 10.33.74.0/24: no cluster network may overlap it.
    [
        "transit subnet overlaps a gateway's LAN",
        (c) => {
            interconnect(c);
            c.transitSubnet = "10.33.0.0/16";
        },
        "nodes[2].gateway.physicalIp",
        /10\.33\.74\.138\/24 overlaps transitSubnet 10\.33\.0\.0\/16/,
    ],
    [
        "masquerade subnet overlaps the services",
        (c) => {
            interconnect(c);
            c.masqueradeSubnet = "172.30.0.0/17";
        },
        "masqueradeSubnet",
        /172\.30\.0\.0\/17 overlaps serviceSubnet 172\.30\.0\.0\/16/,
    ],
    [
        "masquerade subnet overlaps the services (centralized)",
        (c) => {
            interconnect(c);
            c.nodes[0].roles = ["central", "master"];
            c.ovnkube = { architecture: "centralized" };
            c.masqueradeSubnet = "172.30.0.0/17";
        },
        "masqueradeSubnet",
        /overlaps serviceSubnet/,
    ],
    [
        "transit subnet not a CIDR",
        (c) => {
            interconnect(c);
            c.transitSubnet = "100.88.0.0";
        },
        "transitSubnet",
    ],
    [
        "rampout subnets in ovnkube mode",
        (c) => {
            c.kubernetes = { enabled: true };
            c.nodes[2].gateway.mode = "shared";
            c.nodes[2].gateway.rampoutSubnets = ["192.168.2.0/24"];
        },
        "nodes[2].gateway.rampoutSubnets",
        /not supported with kubernetes\.enabled/,
    ],
    [
        "more nodes than ovnkube node-ids in the join subnet",
        (c) => {
            c.kubernetes = { enabled: true };
            c.nodes[2].gateway.mode = "shared";
            c.joinSubnet = "100.64.0.0/29";
            for (const k of [4, 5]) c.nodes.push({ ...c.nodes[1], name: `kube-minion${k}`, address: `10.19.188.${40 + k}` });
        },
        "joinSubnet",
        /gives ovnkube 4 gateway router addresses \(node-ids 2…\), fewer than the 5 nodes/,
    ],
    // The host LAN swallowed by a network the cluster routes internally.
    [
        "cluster subnet contains a host's SSH address",
        (c) => (c.clusterSubnet = "10.0.0.0/8"),
        "clusterSubnet",
        /contains nodes\[0\]\.address 10\.0\.0\.10, .*: the pod network/,
    ],
    [
        "service subnet contains a tunnel IP",
        (c) => (c.nodes[1].tunnelIp = "172.30.5.5"),
        "serviceSubnet",
        /contains nodes\[1\]\.tunnelIp 172\.30\.5\.5/,
    ],
    [
        "join subnet contains a gateway's physical IP",
        (c) => (c.joinSubnet = "10.33.0.0/16"),
        "joinSubnet",
        /contains nodes\[2\]\.gateway\.physicalIp 10\.33\.74\.138/,
    ],
    [
        "join subnet contains a gateway's default gateway",
        (c) => (c.joinSubnet = "10.33.0.0/16"),
        "joinSubnet",
        /contains .*nodes\[2\]\.gateway\.defaultGateway 10\.33\.74\.253/,
    ],
    [
        "pinned node subnet contains a host's SSH address",
        (c) => {
            c.clusterSubnet = "10.0.0.0/8";
            c.nodes[0].subnet = "10.0.0.0/24";
        },
        "nodes[0].subnet",
        /contains nodes\[0\]\.address 10\.0\.0\.10, .*: the node subnet of nodes\[0\]/,
    ],
    // Addresses that identify one host or one gateway.
    [
        "duplicate node address",
        (c) => (c.nodes[2].address = "10.0.0.11"),
        "nodes[2].address",
        /10\.0\.0\.11 port 22 is already the SSH address of nodes\[1\]/,
    ],
    [
        "two gateways with one physical IP",
        (c) => {
            c.nodes[1].roles = ["node", "gateway"];
            c.nodes[1].gateway = { ...c.nodes[2].gateway };
        },
        "nodes[2].gateway.physicalIp",
        /is already nodes\[1\]\.gateway\.physicalIp/,
    ],
    [
        "gateway physical IP is another node's address",
        (c) => Object.assign(c.nodes[2].gateway, { mode: "shared", physicalIp: "10.0.0.11/24", defaultGateway: "10.0.0.1" }),
        "nodes[2].gateway.physicalIp",
        /is already nodes\[1\]\.address/,
    ],
    [
        "default gateway is a node's address",
        (c) => Object.assign(c.nodes[2].gateway, { mode: "shared", physicalIp: "10.0.0.12/24", defaultGateway: "10.0.0.10" }),
        "nodes[2].gateway.defaultGateway",
        /is nodes\[0\]\.address, a cluster host/,
    ],
    [
        "same rampout subnet on two gateways",
        (c) => {
            c.nodes[1].roles = ["node", "gateway"];
            c.nodes[1].gateway = { ...c.nodes[2].gateway, physicalIp: "10.33.74.139/24", rampoutSubnets: ["192.168.2.0/24"] };
            c.nodes[2].gateway.rampoutSubnets = ["192.168.2.0/24"];
        },
        "nodes[2].gateway.rampoutSubnets[0]",
        /overlaps nodes\[1\]\.gateway\.rampoutSubnets\[0\]/,
    ],
    // Addresses that name no single host.
    ["loopback SSH address", (c) => (c.nodes[1].address = "127.0.0.1"), "nodes[1].address", /loopback/],
    ["unspecified tunnel IP", (c) => (c.nodes[1].tunnelIp = "0.0.0.0"), "nodes[1].tunnelIp", /unspecified/],
    ["multicast central address", (c) => (c.nodes[0].tunnelIp = "239.1.1.1"), "nodes[0].tunnelIp", /multicast/],
    ["link-local host address", (c) => (c.nodes[2].address = "169.254.10.12"), "nodes[2].address", /link-local/],
    ["dotted quad that is no IPv4 address", (c) => (c.nodes[1].address = "10.0.0.300"), "nodes[1].address", /not a valid IPv4 address/],
    [
        "DNS name with a trailing dot",
        (c) => (c.nodes[1].address = "minion1.example.com."),
        "nodes[1].address",
        /IPv4 or IPv6 address or DNS name/,
    ],
    // Generated OVN names that would collide.
    [
        "node named like the join switch",
        (c) => (c.nodes[1].name = "join"),
        "nodes[1].name",
        /Logical_Switch name "join", which is also the cluster topology's own Logical_Switch/,
    ],
    ["node named like the cluster router", (c) => (c.nodes[1].name = "ovn_cluster_router"), "nodes[1].name", /DNS-1123 label/],
    ["node named like a gateway router", (c) => (c.nodes[1].name = "GR_kube-minion2"), "nodes[1].name", /DNS-1123 label/],
    ["node named like an external switch", (c) => (c.nodes[1].name = "ext_kube-minion2"), "nodes[1].name", /DNS-1123 label/],
    [
        "bridge named so that its localnet port is a switch port",
        (c) => (c.nodes[2].gateway.bridge = "etor-GR"),
        "nodes[2].gateway.bridge",
        /logical port name "etor-GR_kube-minion2", which is also a logical port generated from nodes\[2\]\.name/,
    ],
    [
        "bridge named so that its localnet port is a router port",
        (c) => (c.nodes[2].gateway.bridge = "rtoe-GR"),
        "nodes[2].gateway.bridge",
        /logical port name "rtoe-GR_kube-minion2"/,
    ],
    // Ports of the central.
    [
        "NB port is the central's SSH port",
        (c) => (c.ovnTransport = { nbPort: 22 }),
        "ovnTransport.nbPort",
        /22 is also the SSH port of nodes\[0\]/,
    ],
    [
        "SB port is the central's own SSH port",
        (c) => (c.nodes[0].port = 6642),
        "ovnTransport.sbPort",
        /6642 is also the SSH port of nodes\[0\]/,
    ],
    // Secrets, namespaces, keys.
    [
        "secret in plain text",
        (c) => (c.sshPrivateKey = "-----BEGIN OPENSSH PRIVATE KEY-----"),
        "sshPrivateKey",
        /plain text.*pulumi config set --secret ovn-kubernetes:sshPrivateKey/,
    ],
    [
        "namespace kube-system",
        (c) => (c.kubernetes = { enabled: false, namespace: "kube-system" }),
        "kubernetes.namespace",
        /belongs to Kubernetes/,
    ],
    [
        "namespace default",
        (c) => (c.kubernetes = { enabled: false, namespace: "default" }),
        "kubernetes.namespace",
        /belongs to Kubernetes/,
    ],
    [
        "key under a misspelled namespace",
        (c) => (c["ovn-kubernets:mtu"] = 9000),
        "ovn-kubernets:mtu",
        /namespace "ovn-kubernets" is not "ovn-kubernetes"; write ovn-kubernetes:mtu/,
    ],
    // Accepted by the schema once, failing only at preview.
    ["API server port 0", (c) => (c.apiServer.url = "http://10.0.0.10:0"), "apiServer.url", /http:\/\/host\[:port\]/],
    ["API server port 99999", (c) => (c.apiServer.url = "http://10.0.0.10:99999"), "apiServer.url"],
    [
        "package version latest",
        (c) => (c.packages = { openvswitchVersion: "latest" }),
        "packages.openvswitchVersion",
        /starting with a digit/,
    ],
    [
        "host key pinned as a fingerprint",
        (c) => (c.nodes[1].hostKey = "SHA256:" + "A".repeat(43)),
        "nodes[1].hostKey",
        /fingerprint cannot be verified.*ssh-keyscan/,
    ],
    [
        "host key line whose data holds another key type",
        (c) => (c.nodes[1].hostKey = "ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQABAAABAQ== kube-minion1"),
        "nodes[1].hostKey",
        /damaged/,
    ],
    [
        "apt suite the package script refuses",
        (c) =>
            (c.packages = {
                repository: { name: "ovs", url: "https://repo.example.com/debian", apt: { suite: "-o", components: "main" } },
            }),
        "packages.repository.apt.suite",
    ],
    // Kubernetes credentials are explicit in ovnkube mode.
    [
        "ovnkube mode without a kubeconfig",
        (c) => {
            interconnect(c);
            delete c.kubeconfig;
        },
        "kubeconfig",
        /required with kubernetes\.enabled \(ovnkube mode\).*useAmbientConfig: true/,
    ],
    [
        "ambient config and a kubeconfig both",
        (c) => {
            interconnect(c);
            c.kubernetes.useAmbientConfig = true;
        },
        "kubernetes.useAmbientConfig",
        /kubeconfig is set too/,
    ],
    [
        "ambient config in Pulumi mode",
        (c) => (c.kubernetes = { enabled: false, useAmbientConfig: true }),
        "kubernetes.useAmbientConfig",
        /ovnkube mode only/,
    ],
    [
        "kubeconfig that is no kubeconfig",
        (c, s) => {
            interconnect(c);
            s.kubeconfig = "server: [https://api";
        },
        "kubeconfig",
        /is not a kubeconfig/,
    ],
    [
        "kubeconfig whose current context names no cluster",
        (c, s) => {
            interconnect(c);
            s.kubeconfig = kubeconfigFor("https://api.example.com:6443").replace("current-context: test", "current-context: prod");
        },
        "kubeconfig",
        /is not a kubeconfig whose current context names a cluster/,
    ],
    [
        "kubeconfig with a plain http server",
        (c, s) => {
            interconnect(c);
            s.kubeconfig = kubeconfigFor("http://10.0.0.10:8080");
        },
        "kubeconfig",
        /its server http:\/\/10\.0\.0\.10:8080 is plain http/,
    ],
    // Tokens over plain http, lab-only switches, credentials in references.
    [
        "plain http API server in ovnkube mode",
        (c) => {
            interconnect(c);
            c.apiServer.url = "http://10.0.0.10:8080";
        },
        "apiServer.url",
        /plain http, and ovnkube sends its service-account token/,
    ],
    [
        "plain http API server in centralized ovnkube mode",
        (c) => {
            interconnect(c);
            c.nodes[0].roles = ["central", "master"];
            c.ovnkube = { architecture: "centralized" };
            c.apiServer.url = "http://api.example.com";
        },
        "apiServer.url",
        /plain http/,
    ],
    [
        "host keys ignored outside a lab",
        (c) => (c.ssh = { insecureIgnoreHostKey: true }),
        "ssh.insecureIgnoreHostKey",
        /accepts any host key.*`lab: true`/,
    ],
    [
        "host keys ignored with lab: false",
        (c) => {
            c.ssh = { insecureIgnoreHostKey: true };
            c.lab = false;
        },
        "ssh.insecureIgnoreHostKey",
        /`lab: true`/,
    ],
    [
        "image with registry credentials",
        (c) => (c.ovnkube = { image: "bob:hunter2@registry.example.com/ovn/ovnkube:v1.3.0" }),
        "ovnkube.image",
        /holds credentials/,
    ],
    [
        "image with a registry user",
        (c) => (c.ovnkube = { image: "bob@registry.example.com/ovn/ovnkube:v1.3.0" }),
        "ovnkube.image",
        /holds credentials/,
    ],
    [
        "image without a tag",
        (c) => (c.ovnkube = { image: "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu" }),
        "ovnkube.image",
        /names no tag or digest/,
    ],
    [
        "image on a registry port without a tag",
        (c) => (c.ovnkube = { image: "registry.example.com:5000/ovnkube" }),
        "ovnkube.image",
        /names no tag or digest/,
    ],
    [
        "image with a short digest",
        (c) => (c.ovnkube = { image: "quay.io/ovn/ovnkube@sha256:abc123" }),
        "ovnkube.image",
        /names no tag or digest/,
    ],
    // Addresses against every range the cluster uses.
    [
        "API server inside the service subnet",
        (c) => (c.apiServer.url = "http://172.30.0.1:8080"),
        "serviceSubnet",
        /contains apiServer\.url 172\.30\.0\.1/,
    ],
    ["API server on loopback", (c) => (c.apiServer.url = "http://127.0.0.1:8080"), "apiServer.url", /loopback/],
    [
        "webhook address inside the cluster subnet",
        (c) => {
            interconnect(c);
            c.ovnkube = { identity: { webhookAddress: "192.168.5.5" } };
        },
        "clusterSubnet",
        /contains ovnkube\.identity\.webhookAddress 192\.168\.5\.5/,
    ],
    [
        "transit subnet contains the hosts",
        (c) => {
            interconnect(c);
            c.transitSubnet = "10.0.0.0/24";
        },
        "transitSubnet",
        /contains nodes\[0\]\.address 10\.0\.0\.10.*the transit network/,
    ],
    [
        "masquerade subnet contains the hosts",
        (c) => {
            interconnect(c);
            c.masqueradeSubnet = "10.0.0.0/17";
        },
        "masqueradeSubnet",
        /contains nodes\[0\]\.address.*masquerade/,
    ],
    [
        "pinned node subnet contains a gateway's physical IP",
        (c) => {
            c.clusterSubnet = "10.32.0.0/11";
            c.nodes[0].subnet = "10.32.1.0/24";
            c.nodes[1].subnet = "10.33.74.0/24";
        },
        "nodes[1].subnet",
        /contains nodes\[2\]\.gateway\.physicalIp 10\.33\.74\.138/,
    ],
    [
        "tunnel IP is the network address of a gateway's LAN",
        (c) => (c.nodes[1].tunnelIp = "10.33.74.0"),
        "nodes[1].tunnelIp",
        /is the network address of the LAN of nodes\[2\]\.gateway 10\.33\.74\.0\/24/,
    ],
    [
        "default gateway is the LAN's broadcast address",
        (c) => (c.nodes[2].gateway.defaultGateway = "10.33.74.255"),
        "nodes[2].gateway.defaultGateway",
        /broadcast address of the LAN of nodes\[2\]\.gateway/,
    ],
    [
        "another node's address is a LAN's broadcast address",
        (c) => (c.nodes[1].address = "10.33.74.255"),
        "nodes[1].address",
        /broadcast address of the LAN of nodes\[2\]\.gateway/,
    ],
    [
        "API server at a LAN's network address",
        (c) => (c.apiServer.url = "http://10.33.74.0:8080"),
        "apiServer.url",
        /network address of the LAN/,
    ],
    [
        "tunnel IP is a central-only node's address",
        (c) => {
            c.nodes[0].roles = ["central"];
            c.nodes[1].roles = ["master"];
            c.nodes[1].tunnelIp = "10.0.0.10";
        },
        "nodes[1].tunnelIp",
        /10\.0\.0\.10 is already nodes\[0\]\.address/,
    ],
    [
        "gateway physical IP is another node's tunnel IP",
        (c) => (c.nodes[1].tunnelIp = "10.33.74.138"),
        "nodes[2].gateway.physicalIp",
        /is already nodes\[1\]\.tunnelIp/,
    ],
    [
        "default gateway is a central-only node's address",
        (c) => {
            c.nodes[0].roles = ["master"];
            c.nodes.push({
                name: "ovn-central",
                address: "10.33.74.1",
                roles: ["central"],
                hostKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ7N7bvlg8vv0BoBBSy8J6wUnfGkbkoAi9kT6iWUu2jQ ovn-central",
            });
            c.nodes[2].gateway.defaultGateway = "10.33.74.1";
        },
        "nodes[2].gateway.defaultGateway",
        /is nodes\[3\]\.address, a cluster host/,
    ],
    [
        "two hosts behind one NAT address with one tunnel IP",
        (c) => {
            c.nodes[2].address = "10.0.0.11";
            c.nodes[2].port = 2222;
        },
        "nodes[2].tunnelIp",
        /10\.0\.0\.11 \(the tunnel IP defaults to the node's address\) is already nodes\[1\]\.address/,
    ],
    // Listeners on one host.
    ["API server on the central's NB port", (c) => (c.apiServer.url = "http://10.0.0.10:6641"), "apiServer.url", /6641 is also nbPort/],
    [
        "API server on a node's SSH port",
        (c) => (c.apiServer.url = "http://10.0.0.11:22"),
        "apiServer.url",
        /22 is also the SSH port of nodes\[1\]/,
    ],
    [
        "https API server's default port is a node's SSH port",
        (c) => {
            https(c);
            c.apiServer.url = "https://10.0.0.11";
            c.nodes[1].port = 443;
        },
        "apiServer.url",
        /443 is also the SSH port of nodes\[1\]/,
    ],
    [
        "cluster-wide SSH port is the NB port",
        (c) => (c.ssh = { port: 6641 }),
        "ovnTransport.nbPort",
        /6641 is also the SSH port of nodes\[0\]/,
    ],
    [
        "NB raft port is the SB port",
        (c) => {
            clustered(c);
            c.ovnTransport = { nbRaftPort: 6642 };
        },
        "ovnTransport.nbRaftPort",
        /6642 is also sbPort/,
    ],
    [
        "API server on a member's raft port",
        (c) => {
            clustered(c);
            c.apiServer.url = "http://10.0.0.12:6644";
        },
        "apiServer.url",
        /6644 is also sbRaftPort/,
    ],
    // Key material, parsed.
    [
        "truncated host key",
        (c) => (c.nodes[1].hostKey = c.nodes[1].hostKey.split(" ")[0] + " " + c.nodes[1].hostKey.split(" ")[1].slice(0, 60)),
        "nodes[1].hostKey",
        /is not an SSH public key/,
    ],
    [
        "host key copied from another node",
        (c) => (c.nodes[2].hostKey = c.nodes[1].hostKey.replace("kube-minion1", "kube-minion2")),
        "nodes[2].hostKey",
        /is also the host key of nodes\[1\]: a key copied between hosts/,
    ],
    [
        "host key is the login key's public half",
        (c, s) => (c.nodes[1].hostKey = publicLine(s.sshPrivateKey!)),
        "nodes[1].hostKey",
        /is the public half of sshPrivateKey/,
    ],
    [
        "SSH key that is no key",
        (_, s) => (s.sshPrivateKey = "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n"),
        "sshPrivateKey",
        /is not an SSH private key/,
    ],
    [
        "SSH public key given as the private key",
        (_, s) => (s.sshPrivateKey = publicLine(s.sshPrivateKey!)),
        "sshPrivateKey",
        /is a public key/,
    ],
    [
        "SSH key encrypted with a passphrase",
        (_, s) => (s.sshPrivateKey = encryptedSshKey()),
        "sshPrivateKey",
        /encrypted with a passphrase/,
    ],
    [
        "private key where the SSL certificate belongs",
        (c, s) => {
            ssl(c);
            s.ovnSslCertificate = s.ovnSslPrivateKey;
        },
        "ovnSslCertificate",
        /private key where a certificate belongs/,
    ],
    [
        "private key where the SSL CA belongs",
        (c, s) => {
            ssl(c);
            s.ovnSslCaCertificate = s.ovnSslPrivateKey;
        },
        "ovnSslCaCertificate",
        /private key where a certificate belongs/,
    ],
    [
        "certificate where the SSL key belongs",
        (c, s) => {
            ssl(c);
            s.ovnSslPrivateKey = s.ovnSslCertificate;
        },
        "ovnSslPrivateKey",
        /holds a certificate where the private key belongs/,
    ],
    [
        "SSL key of another certificate",
        (c, s) => {
            ssl(c);
            s.ovnSslPrivateKey = otherPki().key;
        },
        "ovnSslPrivateKey",
        /does not belong to ovnSslCertificate/,
    ],
    [
        "SSL certificate from another CA",
        (c, s) => {
            ssl(c);
            s.ovnSslCaCertificate = otherPki().ca;
        },
        "ovnSslCertificate",
        /is not signed by ovnSslCaCertificate/,
    ],
    [
        "leaf certificate as the SSL CA",
        (c, s) => {
            ssl(c);
            s.ovnSslCaCertificate = s.ovnSslCertificate;
        },
        "ovnSslCaCertificate",
        /is not a CA certificate/,
    ],
    [
        "truncated SSL certificate",
        (c, s) => {
            ssl(c);
            s.ovnSslCertificate = s.ovnSslCertificate!.slice(0, 200) + "\n-----END CERTIFICATE-----\n";
        },
        "ovnSslCertificate",
        /is not a PEM X\.509 certificate/,
    ],
    [
        "Kubernetes CA that is no certificate",
        (c, s) => {
            https(c);
            s.k8sCaCertificate = "ca.crt";
        },
        "k8sCaCertificate",
        /is not a PEM X\.509 certificate/,
    ],
    [
        "private key where the Kubernetes CA belongs",
        (c, s) => {
            https(c);
            s.k8sCaCertificate = s.ovnSslPrivateKey;
        },
        "k8sCaCertificate",
        /private key where a certificate belongs/,
    ],
    [
        "the SSH key reused as the SSL key",
        (c, s) => {
            ssl(c);
            const k = rsaKeyPair().pkcs1;
            s.sshPrivateKey = k;
            s.ovnSslPrivateKey = k;
        },
        "ovnSslPrivateKey",
        /is the same value as sshPrivateKey/,
    ],
    [
        "the SSH key pair reused as the SSL key in another format",
        (c, s) => {
            ssl(c);
            const k = rsaKeyPair();
            s.sshPrivateKey = k.pkcs1;
            s.ovnSslPrivateKey = k.pkcs8;
        },
        "ovnSslPrivateKey",
        /is the key pair of sshPrivateKey/,
    ],
    [
        "the SSH key as the API token",
        (c, s) => {
            https(c);
            s.k8sApiToken = s.sshPrivateKey;
        },
        "k8sApiToken",
        /is the same value as sshPrivateKey/,
    ],
    [
        "key material as the API token",
        (c, s) => {
            https(c);
            s.k8sApiToken = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
        },
        "k8sApiToken",
        /holds PEM key material/,
    ],
    // Names that collide once made Kubernetes names.
    [
        "bridges that differ only in _ and -",
        secondSharedGateway("br_ex", "br-ex"),
        "nodes[2].gateway.bridge",
        /DaemonSet the name "ovnkube-node-br-ex-10-33-74-253", as nodes\[1\]\.gateway\.bridge does/,
    ],
    [
        "bridges that differ only in . and -",
        secondSharedGateway("br.ex", "br-ex"),
        "nodes[2].gateway.bridge",
        /one DaemonSet would replace the other/,
    ],
    [
        "bridges that differ only in case",
        secondSharedGateway("BrEx", "brex"),
        "nodes[2].gateway.bridge",
        /one DaemonSet would replace the other/,
    ],
    [
        "namespace the project creates for host networking",
        (c) => {
            interconnect(c);
            c.kubernetes.namespace = "ovn-host-network";
        },
        "kubernetes.namespace",
        /created twice|create it twice/,
    ],
    // Settings that cannot work where they apply.
    ["STT tunnels", (c) => (c.encapType = "stt"), "encapType", /STT lived only in Open vSwitch's out-of-tree kernel module/],
    [
        "node subnets of 4 pod addresses",
        (c) => {
            c.hostSubnetLength = 29;
            delete c.nodes[0].subnet;
            delete c.nodes[1].subnet;
        },
        "hostSubnetLength",
        /\/29 leaves 4 pod addresses per node.*\/28 or shorter/,
    ],
    [
        "pinned node subnet of 4 pod addresses",
        (c) => (c.nodes[1].subnet = "192.168.2.0/29"),
        "nodes[1].subnet",
        /\/29 leaves 4 pod addresses/,
    ],
    [
        "package repository without apt lines for debian hosts",
        (c) => (c.packages = { repository: { name: "ovs", url: "https://repo.example.com/debian" } }),
        "packages.repository.apt",
        /required: nodes\[0\] is a debian host/,
    ],
    [
        "apt lines where every host is rhel",
        (c) => {
            for (const n of c.nodes) n.os = "rhel";
            c.packages = { repository: { name: "ovs", url: "https://repo.example.com/el9", apt: { suite: "stable", components: "main" } } };
        },
        "packages.repository.apt",
        /applies to debian hosts, and every node is rhel/,
    ],
    ["non-root SSH user", (c) => (c.ssh = { user: "admin" }), "ssh.user", /"admin": the host scripts .* need root/],
    ["non-root SSH user of one node", (c) => (c.nodes[1].user = "ubuntu"), "nodes[1].user", /need root/],
    // Every range holds what the plan puts in it (the first of these once threw from the planner).
    [
        "more gateways than join addresses in Pulumi mode",
        (c) => {
            c.joinSubnet = "100.64.0.0/29";
            for (let k = 3; k < 8; k++)
                c.nodes.push({
                    ...c.nodes[2],
                    name: `kube-minion${k}`,
                    address: `10.0.0.${10 + k}`,
                    hostKey: undefined,
                    gateway: { ...c.nodes[2].gateway, physicalIp: `10.33.74.${10 + k}/24` },
                });
            c.ssh = { insecureIgnoreHostKey: true };
            c.lab = true;
        },
        "joinSubnet",
        /100\.64\.0\.0\/29 holds 4 gateway router addresses besides the cluster router's, fewer than the 6 gateways/,
    ],
    [
        "transit subnet too small for the node-ids",
        (c) => {
            interconnect(c);
            c.transitSubnet = "100.88.0.0/24";
        },
        "transitSubnet",
        /holds node-ids up to 254, but joinSubnet 100\.64\.0\.0\/16 lets ovnkube give node-ids up to 5000.*\/19 or shorter/,
    ],
    [
        "masquerade subnet too small for ovnkube's addresses",
        (c) => {
            interconnect(c);
            c.masqueradeSubnet = "169.254.0.0/30";
        },
        "masqueradeSubnet",
        /takes its first 5 addresses/,
    ],
    // Four nodes and four /24 slots, but the pinned /23 takes two: the planner once threw here.
    [
        "a wide pinned subnet leaves no room for the others",
        (c) => {
            c.clusterSubnet = "192.168.0.0/22";
            c.nodes[0].subnet = "192.168.0.0/23";
            delete c.nodes[1].subnet;
            c.nodes.push({ name: "kube-minion3", address: "10.0.0.13", roles: ["node"] });
            c.ssh = { insecureIgnoreHostKey: true };
            c.lab = true;
        },
        "nodes",
        /4 nodes do not fit: clusterSubnet 192\.168\.0\.0\/22 holds 2 \/24 subnets besides the pinned ones, for 3 unpinned/,
    ],
    // Image references: the grammar registries read, a named registry, a tag of the release.
    [
        "image by short name",
        (c) => (c.ovnkube = { image: "ovn-kube-ubuntu:v1.3.0" }),
        "ovnkube.image",
        /names no registry.*name the registry/,
    ],
    [
        "image by Docker Hub user name",
        (c) => (c.ovnkube = { image: "ovnorg/ovn-kube-ubuntu:v1.3.0" }),
        "ovnkube.image",
        /names no registry/,
    ],
    [
        "image as a URL",
        (c) => (c.ovnkube = { image: "https://ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:release-1.3" }),
        "ovnkube.image",
        /is a URL; an image reference has no scheme: drop "https:\/\/"/,
    ],
    [
        "image path in upper case",
        (c) => (c.ovnkube = { image: "ghcr.io/OVN-Kubernetes/ovn-kube-ubuntu:release-1.3" }),
        "ovnkube.image",
        /path component "OVN-Kubernetes".*lower-case/,
    ],
    [
        "image registry port that is no number",
        (c) => (c.ovnkube = { image: "registry.example.com:https/ovnkube:v1.3.0" }),
        "ovnkube.image",
        /registry "registry\.example\.com:https".*numeric port/,
    ],
    ["image tag starting with a dot", (c) => (c.ovnkube = { image: "ghcr.io/ovn/ovnkube:.v1" }), "ovnkube.image", /has the tag "\.v1"/],
    [
        "image digest in upper case",
        (c) => (c.ovnkube = { image: "ghcr.io/ovn/ovnkube@sha256:" + "AB".repeat(32) }),
        "ovnkube.image",
        /digest is sha256: and 64 lower-case hex digits/,
    ],
    [
        "image on the moving tag latest",
        (c) => (c.ovnkube = { image: "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:latest" }),
        "ovnkube.image",
        /moving tag "latest".*instead of release 1\.3.*ovnkube\.allowMovingImageTag: true/,
    ],
    [
        "image on the master branch's tag",
        (c) => (c.ovnkube = { version: "1.2", image: "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:master" }),
        "ovnkube.image",
        /moving tag "master".*release 1\.2/,
    ],
    [
        "image of another release",
        (c) => (c.ovnkube = { version: "1.3", image: "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:release-1.2" }),
        "ovnkube.image",
        /image of release 1\.2, but ovnkube\.version is 1\.3/,
    ],
    // The masquerade range: link-local, no wider than upstream's, clear of the clouds' link-local services.
    [
        "routable masquerade range",
        (c) => {
            interconnect(c);
            c.masqueradeSubnet = "10.200.0.0/24";
        },
        "masqueradeSubnet",
        /10\.200\.0\.0\/24 is not link-local.*inside 169\.254\.0\.0\/16/,
    ],
    [
        "masquerade range wider than link-local",
        (c) => {
            interconnect(c);
            c.masqueradeSubnet = "169.254.0.0/15";
        },
        "masqueradeSubnet",
        /is not link-local/,
    ],
    [
        "masquerade range over all of link-local",
        (c) => {
            interconnect(c);
            c.masqueradeSubnet = "169.254.0.0/16";
        },
        "masqueradeSubnet",
        /wider than upstream's \/17/,
    ],
    [
        "masquerade range covering the metadata service",
        (c) => {
            interconnect(c);
            c.masqueradeSubnet = "169.254.128.0/17";
        },
        "masqueradeSubnet",
        /covers 169\.254\.169\.254, the instance metadata service/,
    ],
    [
        "masquerade range covering the cloud's DNS",
        (c) => {
            interconnect(c);
            c.masqueradeSubnet = "169.254.169.248/29";
        },
        "masqueradeSubnet",
        /covers 169\.254\.169\.253, the Amazon VPC DNS resolver/,
    ],
    [
        "masquerade range covering the cloud's NTP",
        (c) => {
            interconnect(c);
            c.masqueradeSubnet = "169.254.169.120/29";
        },
        "masqueradeSubnet",
        /covers 169\.254\.169\.123, the Amazon Time Sync/,
    ],
    // The API server as ovnkube reaches it, from each node's host network.
    [
        "API server at localhost in ovnkube mode",
        (c) => {
            interconnect(c);
            c.apiServer.url = "https://localhost:6443";
        },
        "apiServer.url",
        /localhost names each node itself.*host network/,
    ],
    [
        "API server at a .localhost name",
        (c) => {
            interconnect(c);
            c.apiServer.url = "https://api.localhost:6443";
        },
        "apiServer.url",
        /names each node itself/,
    ],
    [
        "API server at the kubernetes Service's name",
        (c) => {
            interconnect(c);
            c.apiServer.url = "https://kubernetes.default.svc:443";
        },
        "apiServer.url",
        /kubernetes\.default\.svc is a name of the cluster's own DNS/,
    ],
    [
        "API server at a cluster.local name",
        (c) => {
            interconnect(c);
            c.apiServer.url = "https://kubernetes.default.svc.cluster.local";
        },
        "apiServer.url",
        /cluster's own DNS/,
    ],
    [
        "API server at the bare kubernetes name",
        (c) => {
            interconnect(c);
            c.apiServer.url = "https://kubernetes";
        },
        "apiServer.url",
        /cluster's own DNS/,
    ],
    [
        "API server at the kubernetes Service's VIP",
        (c) => {
            interconnect(c);
            c.apiServer.url = "https://172.30.0.1:443";
        },
        "apiServer.url",
        /172\.30\.0\.1 is a Service address in serviceSubnet 172\.30\.0\.0\/16 \(the kubernetes Service's VIP\)/,
    ],
    [
        "API server at another Service address",
        (c) => {
            interconnect(c);
            c.apiServer.url = "https://172.30.4.10:443";
        },
        "apiServer.url",
        /is a Service address in serviceSubnet/,
    ],
    // Names upstream reserves.
    [
        "a node named after ovn-kubernetes' default zone",
        (c) => {
            interconnect(c);
            c.nodes[1].name = "global";
        },
        "nodes[1].name",
        /"global" is ovn-kubernetes' default zone.*rename the node/,
    ],
    [
        "a master named after the default zone",
        (c) => {
            interconnect(c);
            c.nodes[0].name = "global";
        },
        "nodes[0].name",
        /default zone/,
    ],
    // A pinned node subnet of another size than ovnkube's host subnets.
    [
        "a pinned node subnet wider than hostSubnetLength (ovnkube mode)",
        (c) => {
            interconnect(c);
            c.nodes[1].subnet = "192.168.2.0/23";
        },
        "nodes[1].subnet",
        /192\.168\.2\.0\/23 is a \/23, but hostSubnetLength is 24: .*pin a \/24 or set hostSubnetLength to 23/,
    ],
    [
        "hostSubnetLength shorter than the pinned subnets (ovnkube mode)",
        (c) => {
            interconnect(c);
            c.hostSubnetLength = 25;
        },
        "nodes[0].subnet",
        /is a \/24, but hostSubnetLength is 25/,
    ],
    // Package pins built for the other distribution family than a node's os.
    [
        "a Debian build pinned on a rhel node",
        (c) => {
            c.packages = { openvswitchVersion: "3.1.0-2+deb12u1" };
            c.nodes[1].os = "rhel";
        },
        "packages.openvswitchVersion",
        /"3\.1\.0-2\+deb12u1" is a debian-family build \(\+deb12u1\), but nodes\[1\] \(kube-minion1\) has os: rhel/,
    ],
    [
        "an EL9 build pinned on debian nodes",
        (c) => (c.packages = { ovnVersion: "23.09.0-1.el9" }),
        "packages.ovnVersion",
        /rhel-family build \(\.el9\), but nodes\[0\] \(kube-master\), nodes\[1\] \(kube-minion1\), nodes\[2\] \(kube-minion2\) have os: debian/,
    ],
    // Public address space as the pod or service range.
    [
        "public cluster subnet",
        (c) => {
            c.clusterSubnet = "8.0.0.0/16";
            delete c.nodes[0].subnet;
            delete c.nodes[1].subnet;
        },
        "clusterSubnet",
        /8\.0\.0\.0\/16 is not private address space.*allowPublicClusterRanges: true/,
    ],
    ["public service subnet", (c) => (c.serviceSubnet = "52.0.0.0/16"), "serviceSubnet", /52\.0\.0\.0\/16 is not private address space/],
    ["service subnet straddling private space", (c) => (c.serviceSubnet = "172.0.0.0/8"), "serviceSubnet", /is not private address space/],
    [
        "cluster subnet in the benchmarking range",
        (c) => {
            c.clusterSubnet = "198.18.0.0/16";
            delete c.nodes[0].subnet;
            delete c.nodes[1].subnet;
        },
        "clusterSubnet",
        /not private address space/,
    ],
    // ovnkube-identity: its port on the masters, where the API server calls it, the credential ovnkube-node asks with.
    [
        "a master's SSH port is the webhook's",
        (c) => {
            interconnect(c);
            c.nodes[0].port = 9443;
        },
        "nodes[0].port",
        /9443 is also ovnkube-identity's webhook port on nodes\[0\] \(fixed\)/,
    ],
    [
        "the cluster-wide SSH port is the webhook's",
        (c) => {
            interconnect(c);
            c.ssh = { port: 9443 };
        },
        "ssh.port",
        /9443 is also ovnkube-identity's webhook port on nodes\[0\]/,
    ],
    [
        "API server on the webhook's port of its master",
        (c) => {
            interconnect(c);
            c.apiServer.url = "https://10.0.0.10:9443";
        },
        "apiServer.url",
        /9443 is also ovnkube-identity's webhook port/,
    ],
    [
        "webhook called at a master's SSH address, not its node IP",
        (c) => {
            interconnect(c);
            c.nodes[0].tunnelIp = "10.0.5.10";
            c.ovnkube = { identity: { webhookAddress: "10.0.0.10" } };
        },
        "ovnkube.identity.webhookAddress",
        /10\.0\.0\.10 is nodes\[0\]\.address, but ovnkube-identity listens on that master's node IP, its tunnelIp 10\.0\.5\.10.*use 10\.0\.5\.10/,
    ],
    [
        "webhook at localhost with the API server on a worker",
        (c) => {
            interconnect(c);
            c.apiServer.url = "https://10.0.0.11:6443";
        },
        "ovnkube.identity.webhookAddress",
        /localhost, but apiServer\.url names nodes\[1\] \(10\.0\.0\.11\), which is no master and runs no ovnkube-identity/,
    ],
    [
        "bootstrap kubeconfig is cluster-admin's",
        (c) => {
            interconnect(c);
            c.ovnkube = { identity: { bootstrapKubeconfig: "/etc/kubernetes/admin.conf" } };
        },
        "ovnkube.identity.bootstrapKubeconfig",
        /admin\.conf is cluster-admin's credential, not a node's.*system:node:<name>.*kubelet\.conf/,
    ],
    [
        "bootstrap kubeconfig is a bootstrap token",
        (c) => {
            interconnect(c);
            c.ovnkube = { identity: { bootstrapKubeconfig: "/etc/kubernetes/bootstrap-kubelet.conf" } };
        },
        "ovnkube.identity.bootstrapKubeconfig",
        /a bootstrap token/,
    ],
    [
        "bootstrap kubeconfig is a user's",
        (c) => {
            interconnect(c);
            c.ovnkube = { identity: { bootstrapKubeconfig: "/root/.kube/config" } };
        },
        "ovnkube.identity.bootstrapKubeconfig",
        /a user's kubeconfig/,
    ],
    // Where the CRDs come from: https, pinned by the release's tag in the path.
    [
        "CRD mirror over plain http",
        (c) => (c.ovnkube = { crdMirror: "http://mirror.example.com/ovn-kubernetes/v1.3.0/crds/" }),
        "ovnkube.crdMirror",
        /is plain http \(host mirror\.example\.com\).*https/,
    ],
    [
        "CRD mirror following master",
        (c) =>
            (c.ovnkube = { crdMirror: "https://raw.githubusercontent.com/ovn-kubernetes/ovn-kubernetes/master/helm/ovn-kubernetes/crds/" }),
        "ovnkube.crdMirror",
        /follows the branch "master".*under its tag, v1\.3\.0/,
    ],
    [
        "CRD mirror following the release branch",
        (c) => (c.ovnkube = { crdMirror: "https://mirror.example.com/ovn-kubernetes/release-1.3/crds/" }),
        "ovnkube.crdMirror",
        /follows the branch "release-1\.3"/,
    ],
    [
        "CRD mirror of another release",
        (c) => (c.ovnkube = { version: "1.3", crdMirror: "https://mirror.example.com/ovn-kubernetes/v1.2.0/crds/" }),
        "ovnkube.crdMirror",
        /names the tag v1\.2\.0, but ovnkube\.version 1\.3 is v1\.3\.0/,
    ],
    [
        "CRD mirror naming no release",
        (c) => (c.ovnkube = { crdMirror: "https://mirror.example.com/crds/" }),
        "ovnkube.crdMirror",
        /names no release tag in its path/,
    ],
    [
        "CRD mirror with a token, over http",
        (c) => (c.ovnkube = { crdMirror: "http://deploy:s3cr3t-t0ken@mirror.example.com/master/" }),
        "ovnkube.crdMirror",
        /got "http:\/\/…@mirror\.example\.com\/master\/"/,
    ],
    // One ciphertext under two secret keys, seen without decrypting.
    // The program sees the decrypted values (equal, as the ciphertexts were) and refuses them by keyMaterial.ts's relations.
    [
        "the SSL key's ciphertext pasted as the certificate",
        (c, t) => {
            ssl(c);
            c.ovnSslPrivateKey = { secure: "v1:Zm9vYmFyYmF6:c2VjcmV0LXZhbHVlLWhlcmU=" };
            c.ovnSslCertificate = c.ovnSslPrivateKey;
            t.ovnSslCertificate = t.ovnSslPrivateKey;
        },
        "ovnSslCertificate",
        /holds the same ciphertext as ovnSslPrivateKey|private key where a certificate belongs/,
    ],
    [
        "the SSH key's ciphertext reused as the SSL key",
        (c, t) => {
            ssl(c);
            c.sshPrivateKey = { secure: "v1:cXV4cXV1eA==:a2V5LW1hdGVyaWFsLWhlcmU=" };
            c.ovnSslPrivateKey = c.sshPrivateKey;
            t.sshPrivateKey = t.ovnSslPrivateKey = rsaKeyPair().pkcs1;
        },
        "ovnSslPrivateKey",
        /holds the same ciphertext as sshPrivateKey|is the same value as sshPrivateKey/,
    ],
];

/** The dev stack with one case applied, and the plain values of the secrets it then has. */
export function invalidCase(mutate: Mutation): { cfg: Record<string, any>; texts: SecretTexts } {
    const cfg = stackConfig("dev");
    const all: SecretTexts = testSecretTexts();
    mutate(cfg, all);
    // Only secrets the stack sets have a value; a plain-text or empty one is the stack's own.
    const texts = Object.fromEntries(
        SECRET_KEYS.filter((k) => typeof cfg[k] === "object" && all[k] !== undefined).map((k) => [k, all[k]!]),
    );
    return { cfg, texts };
}
