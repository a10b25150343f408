// Invalid stack configs: a mutation of the dev stack, the config path it must be reported at, and
// optionally the reason.
type Mutation = (c: Record<string, any>) => void;

/** The dev cluster in ovnkube mode with the default architecture, interconnect: a shared gateway and no central. */
const interconnect: Mutation = (c) => {
    c.kubernetes = { enabled: true };
    c.nodes[2].gateway.mode = "shared";
    c.nodes[0].roles = ["master"];
};

export const INVALID: Array<[string, Mutation, string, RegExp?]> = [
    ["missing cluster subnet", (c) => delete c.clusterSubnet, "clusterSubnet", /required/],
    ["cluster subnet not a CIDR", (c) => (c.clusterSubnet = "192.168.0.0"), "clusterSubnet"],
    ["cluster subnet host bits set", (c) => (c.clusterSubnet = "192.168.3.0/16"), "clusterSubnet", /not a network address.*192\.168\.0\.0\/16/],
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
    ["clustered centrals on one address", (c) => { for (const n of c.nodes.slice(1)) n.roles.push("central"); c.nodes[2].tunnelIp = "10.0.0.11"; }, "nodes[2].tunnelIp", /10\.0\.0\.11 is already the address of the central nodes\[1\]/],
    ["raft port equal to the NB port", (c) => { for (const n of c.nodes.slice(1)) n.roles.push("central"); c.ovnTransport = { nbRaftPort: 6641 }; }, "ovnTransport.nbRaftPort", /must differ from nbPort \(6641\)/],
    ["SB raft port equal to the NB raft port", (c) => { for (const n of c.nodes.slice(1)) n.roles.push("central"); c.ovnTransport = { sbRaftPort: 6643 }; }, "ovnTransport.sbRaftPort", /must differ from nbRaftPort/],
    ["raft port is a member's SSH port", (c) => { for (const n of c.nodes.slice(1)) n.roles.push("central"); c.nodes[2].port = 6644; }, "ovnTransport.sbRaftPort", /6644 is the SSH port of the central nodes\[2\]/],
    ["clustered central on rhel", (c) => { for (const n of c.nodes.slice(1)) n.roles.push("central"); c.nodes[1].os = "rhel"; }, "nodes[1].os", /debian hosts only/],
    ["no master", (c) => (c.nodes[0].roles = ["central", "node"]), "nodes", /role "master"/],
    ["unknown role", (c) => (c.nodes[1].roles = ["worker"]), "nodes[1].roles[0]", /must be one of/],
    ["gateway role without gateway block", (c) => delete c.nodes[2].gateway, "nodes[2].gateway", /required for the role/],
    ["gateway block without role", (c) => (c.nodes[2].roles = ["node"]), "nodes[2].gateway", /lacks the role/],
    ["gateway-only node", (c) => (c.nodes[2].roles = ["gateway"]), "nodes[2].roles", /also be a "node" or "master"/],
    ["default gateway outside physical subnet", (c) => (c.nodes[2].gateway.defaultGateway = "10.33.75.1"), "nodes[2].gateway.defaultGateway", /not in the subnet/],
    ["physical IP is the network address", (c) => (c.nodes[2].gateway.physicalIp = "10.33.74.0/24"), "nodes[2].gateway.physicalIp", /network or broadcast/],
    ["physical IP overlaps the cluster", (c) => {
        c.nodes[2].gateway.physicalIp = "192.168.9.9/24";
        c.nodes[2].gateway.defaultGateway = "192.168.9.1";
    }, "nodes[2].gateway.physicalIp", /overlaps clusterSubnet/],
    ["interface name too long", (c) => (c.nodes[2].gateway.interface = "enp0s31f6abcdefgh"), "nodes[2].gateway.interface"],
    ["interface name with a slash", (c) => (c.nodes[2].gateway.interface = "eth0/1"), "nodes[2].gateway.interface"],
    ["interface name with command substitution", (c) => (c.nodes[2].gateway.interface = "$(reboot)"), "nodes[2].gateway.interface"],
    ["default bridge name too long", (c) => (c.nodes[2].gateway.interface = "enp0s31f6abcde"), "nodes[2].gateway.bridge", /longer than 15/],
    ["bridge equals interface", (c) => (c.nodes[2].gateway.bridge = "eth1"), "nodes[2].gateway.bridge"],
    ["unknown gateway mode", (c) => (c.nodes[2].gateway.mode = "bridged"), "nodes[2].gateway.mode"],
    ["rampout subnet outside cluster", (c) => (c.nodes[2].gateway.rampoutSubnets = ["10.9.0.0/16"]), "nodes[2].gateway.rampoutSubnets[0]", /not inside/],
    ["MTU too small", (c) => (c.mtu = 100), "mtu"],
    ["MTU too large", (c) => (c.mtu = 65000), "mtu"],
    ["MTU not an integer", (c) => (c.mtu = 1400.5), "mtu", /integer/],
    ["unknown encap type", (c) => (c.encapType = "gre"), "encapType", /geneve, stt, vxlan/],
    ["unknown top-level key", (c) => (c.clusterSubnets = "10.0.0.0/8"), "clusterSubnets", /not a known setting/],
    ["address with shell metacharacters", (c) => (c.nodes[1].address = "10.0.0.11;id"), "nodes[1].address"],
    ["hostname address needs a tunnel IP", (c) => (c.nodes[1].address = "minion1.example.com"), "nodes[1].tunnelIp", /not an IPv4 address/],
    ["duplicate tunnel IP", (c) => (c.nodes[2].tunnelIp = "10.0.0.11"), "nodes[2].tunnelIp", /already the tunnel IP of nodes\[1\]/],
    ["missing host key", (c) => delete c.nodes[1].hostKey, "nodes[1].hostKey", /pin the host key/],
    ["malformed host key", (c) => (c.nodes[1].hostKey = "ssh-ed25519 AAAA$(id)"), "nodes[1].hostKey"],
    ["SSH port out of range", (c) => (c.nodes[1].port = 70000), "nodes[1].port"],
    ["https API without token", (c) => (c.apiServer.url = "https://10.0.0.10:6443"), "k8sApiToken", /secret.*https/],
    ["API URL with a path and a quote", (c) => (c.apiServer.url = "http://10.0.0.10:8080/'x"), "apiServer.url"],
    ["ssl transport without keys", (c) => (c.ovnTransport = { protocol: "ssl" }), "ovnSslPrivateKey", /ssl/],
    ["NB and SB on one port", (c) => (c.ovnTransport = { nbPort: 6641, sbPort: 6641 }), "ovnTransport.sbPort"],
    ["missing SSH key secret", (c) => delete c.sshPrivateKey, "sshPrivateKey", /required/],
    ["empty secret", (c) => (c.sshPrivateKey = ""), "sshPrivateKey"],
    ["too many nodes for the cluster subnet", (c) => {
        c.clusterSubnet = "192.168.0.0/23";
        delete c.nodes[0].subnet;
        delete c.nodes[1].subnet;
    }, "nodes", /do not fit/],
    ["image with spaces", (c) => (c.ovnkube = { image: "ovn kube" }), "ovnkube.image"],
    ["the moved setting ovnkubeImage", (c) => (c.ovnkubeImage = "ghcr.io/ovn-org/ovn-kubernetes/ovn-kube-ubuntu:release-1.0"), "ovnkubeImage", /not a known setting: it is ovnkube\.image now/],
    ["ovn-kubernetes 1.0", (c) => (c.ovnkube = { version: "1.0" }), "ovnkube.version", /"1\.0" is not a supported ovn-kubernetes release: upstream maintains only 1\.3 and 1\.2/],
    ["unknown ovnkube architecture", (c) => (c.ovnkube = { architecture: "distributed" }), "ovnkube.architecture", /interconnect, centralized/],
    ["CRD mirror that is no directory URL", (c) => (c.ovnkube = { crdMirror: "https://mirror.example.com/crds" }), "ovnkube.crdMirror", /URL of a directory, ending in \//],
    ["CRD mirror over ftp", (c) => (c.ovnkube = { crdMirror: "ftp://mirror.example.com/crds/" }), "ovnkube.crdMirror", /http\(s\):\/\/ or file:\/\/\//],
    // Node identities: the API server calls ovnkube-identity where it runs, on a master.
    ["identity webhook address that is no master's", (c) => { interconnect(c); c.ovnkube = { identity: { webhookAddress: "10.0.0.11" } }; }, "ovnkube.identity.webhookAddress", /10\.0\.0\.11 is no master's address: ovnkube-identity runs on the masters \(10\.0\.0\.10\)/],
    ["identity webhook address with shell metacharacters", (c) => (c.ovnkube = { identity: { webhookAddress: "localhost;id" } }), "ovnkube.identity.webhookAddress", /IPv4 address or DNS name/],
    ["relative bootstrap kubeconfig", (c) => (c.ovnkube = { identity: { bootstrapKubeconfig: "etc/kubernetes/kubelet.conf" } }), "ovnkube.identity.bootstrapKubeconfig", /must be an absolute path/],
    ["bootstrap kubeconfig in the host's root", (c) => { interconnect(c); c.ovnkube = { identity: { bootstrapKubeconfig: "/kubelet.conf" } }; }, "ovnkube.identity.bootstrapKubeconfig", /mounts this file's directory, which is the host's root/],
    ["bootstrap kubeconfig in a directory ovnkube-node mounts already", (c) => { interconnect(c); c.ovnkube = { identity: { bootstrapKubeconfig: "/etc/openvswitch/kubelet.conf" } }; }, "ovnkube.identity.bootstrapKubeconfig", /is or holds \/etc\/openvswitch, a directory it mounts already/],
    ["unknown key under ovnkube.identity", (c) => (c.ovnkube = { identity: { webhookPort: 9443 } }), "ovnkube.identity.webhookPort", /not a known setting/],
    ["userspace datapath without a tunnel interface", (c) => (c.datapathType = "netdev"), "nodes[1].tunnelInterface", /userspace tunnels/],
    ["tunnel interface with shell metacharacters", (c) => (c.nodes[1].tunnelInterface = "eth0;id"), "nodes[1].tunnelInterface"],
    ["package version with shell metacharacters", (c) => (c.packages = { ovnVersion: "1.0;id" }), "packages.ovnVersion"],
    ["dedicated gateway in ovnkube mode", (c) => (c.kubernetes = { enabled: true }), "nodes[2].gateway.mode", /deploys ovnkube's shared gateway only/],
    ["vxlan in ovnkube mode", (c) => { interconnect(c); c.encapType = "vxlan"; }, "encapType", /ovnkube sets every node's ovn-encap-type to geneve/],
    // Interconnect: every node its own zone, ovnkube's transit and masquerade networks beside the others.
    ["a central with interconnect", (c) => (c.kubernetes = { enabled: true, namespace: "ovn-kubernetes" }), "nodes[0].roles", /"central" has no place with ovnkube\.architecture interconnect/],
    ["transit subnet overlaps the cluster", (c) => { interconnect(c); c.transitSubnet = "192.168.128.0/17"; }, "transitSubnet", /192\.168\.128\.0\/17 overlaps clusterSubnet 192\.168\.0\.0\/16/],
    ["transit subnet overlaps the join subnet", (c) => { interconnect(c); c.transitSubnet = "100.64.128.0/17"; }, "transitSubnet", /overlaps joinSubnet/],
    // The dev gateway's LAN is 10.33.74.0/24: no cluster network may overlap it.
    ["transit subnet overlaps a gateway's LAN", (c) => { interconnect(c); c.transitSubnet = "10.33.0.0/16"; }, "nodes[2].gateway.physicalIp", /10\.33\.74\.138\/24 overlaps transitSubnet 10\.33\.0\.0\/16/],
    ["masquerade subnet overlaps the services", (c) => { interconnect(c); c.masqueradeSubnet = "172.30.0.0/17"; }, "masqueradeSubnet", /172\.30\.0\.0\/17 overlaps serviceSubnet 172\.30\.0\.0\/16/],
    ["masquerade subnet overlaps the services (centralized)", (c) => {
        interconnect(c);
        c.nodes[0].roles = ["central", "master"];
        c.ovnkube = { architecture: "centralized" };
        c.masqueradeSubnet = "172.30.0.0/17";
    }, "masqueradeSubnet", /overlaps serviceSubnet/],
    ["transit subnet not a CIDR", (c) => { interconnect(c); c.transitSubnet = "100.88.0.0"; }, "transitSubnet"],
    ["rampout subnets in ovnkube mode", (c) => { c.kubernetes = { enabled: true }; c.nodes[2].gateway.mode = "shared"; c.nodes[2].gateway.rampoutSubnets = ["192.168.2.0/24"]; }, "nodes[2].gateway.rampoutSubnets", /not supported with kubernetes\.enabled/],
    ["more nodes than ovnkube node-ids in the join subnet", (c) => {
        c.kubernetes = { enabled: true };
        c.nodes[2].gateway.mode = "shared";
        c.joinSubnet = "100.64.0.0/29";
        for (const k of [4, 5]) c.nodes.push({ ...c.nodes[1], name: `kube-minion${k}`, address: `10.19.188.${40 + k}` });
    }, "joinSubnet", /gives ovnkube 4 gateway router addresses \(node-ids 2…\), fewer than the 5 nodes/],
    // The host LAN swallowed by a network the cluster routes internally.
    ["cluster subnet contains a host's SSH address", (c) => (c.clusterSubnet = "10.0.0.0/8"), "clusterSubnet", /contains nodes\[0\]\.address 10\.0\.0\.10, .*: the pod network/],
    ["service subnet contains a tunnel IP", (c) => (c.nodes[1].tunnelIp = "172.30.5.5"), "serviceSubnet", /contains nodes\[1\]\.tunnelIp 172\.30\.5\.5/],
    ["join subnet contains a gateway's physical IP", (c) => (c.joinSubnet = "10.33.0.0/16"), "joinSubnet", /contains nodes\[2\]\.gateway\.physicalIp 10\.33\.74\.138/],
    ["join subnet contains a gateway's default gateway", (c) => (c.joinSubnet = "10.33.0.0/16"), "joinSubnet", /contains .*nodes\[2\]\.gateway\.defaultGateway 10\.33\.74\.253/],
    ["pinned node subnet contains a host's SSH address", (c) => {
        c.clusterSubnet = "10.0.0.0/8";
        c.nodes[0].subnet = "10.0.0.0/24";
    }, "nodes[0].subnet", /contains nodes\[0\]\.address 10\.0\.0\.10, .*: the node subnet of nodes\[0\]/],
    // Addresses that identify one host or one gateway.
    ["duplicate node address", (c) => (c.nodes[2].address = "10.0.0.11"), "nodes[2].address", /10\.0\.0\.11 port 22 is already the SSH address of nodes\[1\]/],
    ["two gateways with one physical IP", (c) => {
        c.nodes[1].roles = ["node", "gateway"];
        c.nodes[1].gateway = { ...c.nodes[2].gateway };
    }, "nodes[2].gateway.physicalIp", /already the physical IP of nodes\[1\]\.gateway/],
    ["gateway physical IP is another node's address", (c) => Object.assign(c.nodes[2].gateway, { mode: "shared", physicalIp: "10.0.0.11/24", defaultGateway: "10.0.0.1" }), "nodes[2].gateway.physicalIp", /is the address of nodes\[1\]/],
    ["default gateway is a node's address", (c) => Object.assign(c.nodes[2].gateway, { mode: "shared", physicalIp: "10.0.0.12/24", defaultGateway: "10.0.0.10" }), "nodes[2].gateway.defaultGateway", /is the address of nodes\[0\], a cluster host/],
    ["same rampout subnet on two gateways", (c) => {
        c.nodes[1].roles = ["node", "gateway"];
        c.nodes[1].gateway = { ...c.nodes[2].gateway, physicalIp: "10.33.74.139/24", rampoutSubnets: ["192.168.2.0/24"] };
        c.nodes[2].gateway.rampoutSubnets = ["192.168.2.0/24"];
    }, "nodes[2].gateway.rampoutSubnets[0]", /overlaps nodes\[1\]\.gateway\.rampoutSubnets\[0\]/],
    // Addresses that name no single host.
    ["loopback SSH address", (c) => (c.nodes[1].address = "127.0.0.1"), "nodes[1].address", /loopback/],
    ["unspecified tunnel IP", (c) => (c.nodes[1].tunnelIp = "0.0.0.0"), "nodes[1].tunnelIp", /unspecified/],
    ["multicast central address", (c) => (c.nodes[0].tunnelIp = "239.1.1.1"), "nodes[0].tunnelIp", /multicast/],
    ["link-local host address", (c) => (c.nodes[2].address = "169.254.10.12"), "nodes[2].address", /link-local/],
    ["dotted quad that is no IPv4 address", (c) => (c.nodes[1].address = "10.0.0.300"), "nodes[1].address", /not a valid IPv4 address/],
    ["DNS name with a trailing dot", (c) => (c.nodes[1].address = "minion1.example.com."), "nodes[1].address", /IPv4 address or DNS name/],
    // Generated OVN names that would collide.
    ["node named like the join switch", (c) => (c.nodes[1].name = "join"), "nodes[1].name", /Logical_Switch name "join", which is also the cluster topology's own Logical_Switch/],
    ["node named like the cluster router", (c) => (c.nodes[1].name = "ovn_cluster_router"), "nodes[1].name", /DNS-1123 label/],
    ["node named like a gateway router", (c) => (c.nodes[1].name = "GR_kube-minion2"), "nodes[1].name", /DNS-1123 label/],
    ["node named like an external switch", (c) => (c.nodes[1].name = "ext_kube-minion2"), "nodes[1].name", /DNS-1123 label/],
    ["bridge named so that its localnet port is a switch port", (c) => (c.nodes[2].gateway.bridge = "etor-GR"), "nodes[2].gateway.bridge", /logical port name "etor-GR_kube-minion2", which is also a logical port generated from nodes\[2\]\.name/],
    ["bridge named so that its localnet port is a router port", (c) => (c.nodes[2].gateway.bridge = "rtoe-GR"), "nodes[2].gateway.bridge", /logical port name "rtoe-GR_kube-minion2"/],
    // Ports of the central.
    ["NB port is the central's SSH port", (c) => (c.ovnTransport = { nbPort: 22 }), "ovnTransport.nbPort", /22 is the SSH port of the central nodes\[0\]/],
    ["SB port is the central's own SSH port", (c) => (c.nodes[0].port = 6642), "ovnTransport.sbPort", /6642 is the SSH port of the central/],
    // Secrets, namespaces, keys.
    ["secret in plain text", (c) => (c.sshPrivateKey = "-----BEGIN OPENSSH PRIVATE KEY-----"), "sshPrivateKey", /plain text.*pulumi config set --secret ovn-kubernetes:sshPrivateKey/],
    ["namespace kube-system", (c) => (c.kubernetes = { enabled: false, namespace: "kube-system" }), "kubernetes.namespace", /belongs to Kubernetes/],
    ["namespace default", (c) => (c.kubernetes = { enabled: false, namespace: "default" }), "kubernetes.namespace", /belongs to Kubernetes/],
    ["key under a misspelled namespace", (c) => (c["ovn-kubernets:mtu"] = 9000), "ovn-kubernets:mtu", /namespace "ovn-kubernets" is not "ovn-kubernetes"; write ovn-kubernetes:mtu/],
    // Accepted by the schema once, failing only at preview.
    ["API server port 0", (c) => (c.apiServer.url = "http://10.0.0.10:0"), "apiServer.url", /http:\/\/host\[:port\]/],
    ["API server port 99999", (c) => (c.apiServer.url = "http://10.0.0.10:99999"), "apiServer.url"],
    ["package version latest", (c) => (c.packages = { openvswitchVersion: "latest" }), "packages.openvswitchVersion", /starting with a digit/],
    ["host key pinned as a fingerprint", (c) => (c.nodes[1].hostKey = "SHA256:" + "A".repeat(43)), "nodes[1].hostKey", /fingerprint cannot be verified.*ssh-keyscan/],
    ["host key line whose data holds another key type", (c) => (c.nodes[1].hostKey = "ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQABAAABAQ== kube-minion1"), "nodes[1].hostKey", /damaged/],
    ["apt suite the package script refuses", (c) => (c.packages = { repository: { name: "ovs", url: "https://repo.example.com/debian", apt: { suite: "-o", components: "main" } } }), "packages.repository.apt.suite"],
];

