// Invalid stack configs: a mutation of the dev stack, the config path it must be reported at, and
// optionally the reason.
type Mutation = (c: Record<string, any>) => void;

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
    ["no central", (c) => (c.nodes[0].roles = ["master"]), "nodes", /exactly one node must have the role "central" \(found 0\)/],
    ["two centrals", (c) => (c.nodes[1].roles = ["central", "node"]), "nodes", /found 2/],
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
    ["image with spaces", (c) => (c.ovnkubeImage = "ovn kube"), "ovnkubeImage"],
    ["userspace datapath without a tunnel interface", (c) => (c.datapathType = "netdev"), "nodes[1].tunnelInterface", /userspace tunnels/],
    ["tunnel interface with shell metacharacters", (c) => (c.nodes[1].tunnelInterface = "eth0;id"), "nodes[1].tunnelInterface"],
    ["package version with shell metacharacters", (c) => (c.packages = { ovnVersion: "1.0;id" }), "packages.ovnVersion"],
    ["dedicated gateway in ovnkube mode", (c) => (c.kubernetes = { enabled: true }), "nodes[2].gateway.mode", /ovnkube v1\.0 runs shared gateways only/],
    ["rampout subnets in ovnkube mode", (c) => { c.kubernetes = { enabled: true }; c.nodes[2].gateway.mode = "shared"; c.nodes[2].gateway.rampoutSubnets = ["192.168.2.0/24"]; }, "nodes[2].gateway.rampoutSubnets", /not supported with kubernetes\.enabled/],
    ["more nodes than ovnkube node-ids in the join subnet", (c) => {
        c.kubernetes = { enabled: true };
        c.nodes[2].gateway.mode = "shared";
        c.joinSubnet = "100.64.0.0/29";
        for (const k of [4, 5]) c.nodes.push({ ...c.nodes[1], name: `kube-minion${k}`, address: `10.19.188.${40 + k}` });
    }, "joinSubnet", /gives ovnkube 4 gateway router addresses \(node-ids 2…\), fewer than the 5 nodes/],
];

