import assert from "node:assert/strict";
import { describe, it, test } from "node:test";
import { validateConfig } from "../../components/plan/validate";
import { macFromIp, toInt } from "../../components/values";
import { buildClusterModel } from "../../components/model/clusterModel";
import { stackConfig } from "../../lab/harness/configs";

const dev = () => buildClusterModel(validateConfig(stackConfig("dev")));

test("defaults are applied by the schema", () => {
    const cfg = stackConfig("dev");
    delete cfg.mtu;
    delete cfg.joinSubnet;
    delete cfg.encapType;
    delete cfg.ovnkube;
    const v = validateConfig(cfg);
    assert.deepEqual(v.ovnkube, {
        version: "1.3",
        architecture: "interconnect",
        image: "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:release-1.3",
        allowMovingImageTag: false,
        identity: { enabled: true, webhookAddress: "localhost", bootstrapKubeconfig: "/etc/kubernetes/kubelet.conf" },
        // The chart's values-single-node-zone.yaml at v1.3.0 (docs/facts/ovnkube-1.3.md §13).
        gatewayMode: "shared",
        ipsec: false,
        // OVN from the hosts' packages; the release image's OVN (Dockerfile.ubuntu: ubuntu:25.10's) stands ready for image mode.
        ovnSource: "packages",
        imageOvnVersion: "25.09.0",
        features: {
            egressIp: true,
            egressFirewall: true,
            egressQos: true,
            egressService: true,
            multiExternalGateway: true,
            serviceTemplates: true,
            adminNetworkPolicy: false,
            multicast: false,
            networkQos: false,
            statelessNetworkPolicy: false,
            allowIcmpNetworkPolicy: false,
            routeAdvertisements: false,
            evpn: false,
            dnsNameResolver: false,
            multiNetwork: false,
            networkSegmentation: false,
            networkConnect: false,
            preconfiguredUdnAddresses: false,
            dynamicUdnAllocation: false,
            persistentIps: false,
            multiNetworkPolicy: false,
            egressIpHealthCheckPort: 9107,
        },
    });
    assert.equal(v.transitSubnets[0], "100.88.0.0/16");
    assert.equal(v.masqueradeSubnets[0], "169.254.0.0/17");
    assert.equal(v.mtu, 1400);
    assert.equal(v.joinSubnets[0], "100.64.0.0/16");
    assert.equal(v.encapType, "geneve");
    assert.equal(v.ssh.user, "root");
    assert.equal(v.nodes[2].gateway?.bridge, "breth1");
    assert.equal(v.nodes[1].tunnelIp, "10.0.0.11");
    assert.deepEqual(v.secretsPresent, ["sshPrivateKey"]);
});

test("dev stack: the seeds' topology with ovn-kubernetes names", () => {
    const m = dev();
    assert.equal(m.clusterRouter.name, "ovn_cluster_router");
    assert.equal(m.clusterRouter.joinPort, "rtoj-ovn_cluster_router");
    assert.equal(m.clusterRouter.joinAddress.cidr, "100.64.0.1/16");
    const master = m.nodeNetworks.find((n) => n.node === "kube-master")!;
    assert.deepEqual(
        {
            sw: master.switchName,
            subnet: master.subnet,
            rp: master.routerPort,
            sp: master.routerPeerPort,
            r: master.router.cidr,
            mg: master.mgmt.cidr,
            port: master.mgmtPort,
        },
        {
            sw: "kube-master",
            subnet: "192.168.1.0/24",
            rp: "rtos-kube-master",
            sp: "stor-kube-master",
            r: "192.168.1.1/24",
            mg: "192.168.1.2/24",
            port: "k8s-kube-master",
        },
    );
    assert.equal(master.router.mac, "0a:58:c0:a8:01:01");
    const minion1 = m.nodeNetworks.find((n) => n.node === "kube-minion1")!;
    assert.equal(minion1.mgmtInterface, "k8s-kube-minion");
    const gw = m.gateways[0];
    assert.equal(gw.router, "GR_kube-minion2");
    assert.equal(gw.externalPort, "rtoe-GR_kube-minion2");
    assert.equal(gw.externalPeerPort, "etor-GR_kube-minion2");
    assert.equal(gw.externalSwitch, "ext_kube-minion2");
    assert.equal(gw.uplinkPort, "breth1_kube-minion2");
    assert.equal(gw.physical.cidr, "10.33.74.138/24");
    assert.equal(gw.clusterRouterJoinIp, "100.64.0.1");
    assert.match(gw.join.ip, /^100\.64\.\d+\.\d+$/);
    assert.notEqual(gw.join.ip, "100.64.0.1");
    assert.equal(m.nbAddress, "tcp:10.0.0.10:6641");
    assert.equal(m.sbAddress, "tcp:10.0.0.10:6642");
    assert.equal(m.central!.nbListener, "ptcp:6641:10.0.0.10");
});

test("hosts: packages per role, chassis settings, bridge mappings only on gateways", () => {
    const m = dev();
    const [master, minion1, minion2] = m.hosts;
    assert.deepEqual(master.packages, ["openvswitch-common", "openvswitch-switch", "ovn-common", "ovn-central", "ovn-host"]);
    assert.deepEqual(minion1.packages, ["openvswitch-common", "openvswitch-switch", "ovn-common", "ovn-host"]);
    assert.equal(minion1.chassis?.encapIp, "10.0.0.11");
    assert.equal(minion1.chassis?.bridgeMappings, undefined);
    assert.equal(minion2.chassis?.bridgeMappings, "physnet:breth1");
    assert.equal(master.ssh.hostKey?.startsWith("ssh-ed25519 "), true);
});

test("prod stack: ssl listeners, a central without a chassis, two shared gateways, ovnkube mode", () => {
    const m = buildClusterModel(validateConfig(stackConfig("prod")));
    assert.equal(m.nbAddress, "ssl:10.10.0.5:6641");
    assert.equal(m.central!.sbListener, "pssl:6642:10.10.0.5");
    const central = m.hosts.find((h) => h.isCentral)!;
    assert.equal(central.isChassis, false);
    assert.deepEqual(central.packages, ["openvswitch-common", "openvswitch-switch", "ovn-common", "ovn-central"]);
    assert.equal(m.gateways.length, 2);
    assert.deepEqual(
        m.gateways.map((g) => g.mode),
        ["shared", "shared"],
    );
    assert.notEqual(m.gateways[0].join.ip, m.gateways[1].join.ip);
    assert.equal(m.writer, "ovnkube");
    assert.equal(m.kube.secureApi, true);
    assert.equal(m.nodeNetworks.length, 4);
});

test("ovnkube.ipsec: every zone's host runs IPsec and gets openvswitch-ipsec and strongSwan's gcm plugin after OVN's packages", () => {
    const cfg = stackConfig("staging");
    cfg.ovnkube = { ...cfg.ovnkube, ipsec: true };
    const m = buildClusterModel(validateConfig(cfg));
    for (const h of m.hosts) {
        assert.equal(h.ipsec, true, h.name);
        assert.deepEqual(h.packages.slice(-3), ["ovn-host", "openvswitch-ipsec", "libstrongswan-standard-plugins"], h.name);
    }
});

test("ovnkube.ovnSource image: the hosts get Open vSwitch only, ovn-controller runs in the pod, every node's OVS is held to the image's OVN", () => {
    const cfg = stackConfig("staging");
    cfg.ovnkube = { ...cfg.ovnkube, ovnSource: "image" };
    // The hosts install no OVN to pin (a pin is refused: test/support/invalidConfigs.ts).
    delete cfg.packages.ovnVersion;
    const m = buildClusterModel(validateConfig(cfg));
    assert.equal(m.ovnSource, "image");
    assert.equal(m.kube.ovnSource, "image");
    assert.deepEqual(m.imageOvn, { version: "25.09.0", minimumOvs: "3.1.0" });
    for (const h of m.hosts) {
        assert.deepEqual(h.packages, ["openvswitch-common", "openvswitch-switch"], h.name);
        assert.equal(h.zone, h.name);
        assert.equal(h.chassis!.controller, "image", h.name);
    }
    // Another OVN named for the image (the lab's carries Debian unstable's) is what the hosts are held to.
    cfg.ovnkube = { ...cfg.ovnkube, imageOvnVersion: "26.03" };
    assert.deepEqual(buildClusterModel(validateConfig(cfg)).imageOvn, { version: "26.03", minimumOvs: "3.1.0" });
    // The packages mode has no image OVN to hold anything to.
    assert.equal(buildClusterModel(validateConfig(stackConfig("staging"))).imageOvn, undefined);
});

test("staging stack: interconnect, every Kubernetes node its own zone with local databases, no central", () => {
    const m = buildClusterModel(validateConfig(stackConfig("staging")));
    assert.equal(m.writer, "ovnkube");
    assert.equal(m.architecture, "interconnect");
    assert.equal(m.central, undefined);
    assert.equal(m.nbAddress, "unix:/var/run/ovn/ovnnb_db.sock");
    assert.equal(m.sbAddress, "unix:/var/run/ovn/ovnsb_db.sock");
    assert.equal(m.hosts.length, 5);
    for (const h of m.hosts) {
        assert.equal(h.zone, h.name);
        assert.equal(h.isCentral, false);
        assert.equal(h.isChassis, true);
        // Each zone runs its own NB, SB and northd beside its chassis.
        assert.deepEqual(h.packages, ["openvswitch-common", "openvswitch-switch", "ovn-common", "ovn-central", "ovn-host"]);
        assert.equal(h.ipsec, false);
    }
    assert.equal(m.kube.version, "1.3");
    assert.equal(m.kube.architecture, "interconnect");
    assert.equal(m.kube.image, "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:release-1.3");
    assert.equal(m.kube.transitSubnets[0], "100.88.0.0/16");
    assert.equal(m.kube.masqueradeSubnets[0], "169.254.0.0/17");
    assert.ok(!("OvnNorth" in m.kube.config) && !("OvnSouth" in m.kube.config), "no database addresses in ovn-config");
    // The cluster manager gives the transit port the transit base plus the node-id, as the join port the join base.
    for (const n of m.kube.nodes) {
        assert.equal(toInt(n.transit![0].ip), toInt("100.88.0.0") + BigInt(n.nodeId), n.name);
        assert.equal(n.transit![0].cidr, `${n.transit![0].ip}/16`);
        assert.equal(n.transit![0].mac, macFromIp(n.transit![0].ip));
    }
});

test("the release's CRDs: upstream's URLs at its tag, or the mirror's files of the same names", () => {
    const staging = stackConfig("staging");
    const upstream = buildClusterModel(validateConfig(staging)).kube.crdUrls;
    assert.equal(upstream.length, 11);
    for (const url of upstream)
        assert.match(
            url,
            /^https:\/\/raw\.githubusercontent\.com\/ovn-kubernetes\/ovn-kubernetes\/v1\.3\.0\/helm\/ovn-kubernetes\/crds\/k8s\.ovn\.org_[a-z]+\.yaml$/,
        );
    const mirror = "file:///srv/crds/";
    const mirrored = buildClusterModel(validateConfig({ ...staging, ovnkube: { ...staging.ovnkube, crdMirror: mirror } })).kube.crdUrls;
    assert.deepEqual(
        mirrored,
        upstream.map((u) => mirror + u.split("/").pop()),
    );
    // 1.2's chart links to plain-YAML templates (.yaml.j2); a mirror holds them as .yaml.
    const v12 = buildClusterModel(validateConfig({ ...staging, ovnkube: { version: "1.2", crdMirror: mirror } })).kube;
    assert.equal(v12.crdUrls.length, 9);
    for (const url of v12.crdUrls) assert.match(url, /^file:\/\/\/srv\/crds\/k8s\.ovn\.org_[a-z]+\.yaml$/);
    assert.equal(v12.image, "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:release-1.2");
});

test("MACs are derived from IPs", () => {
    assert.equal(macFromIp("10.128.0.2"), "0a:58:0a:80:00:02");
});

test("the model is a pure function of the config", () => {
    assert.deepEqual(dev(), dev());
});

describe("ovnkube mode: the plan ovnkube is fed", () => {
    const input = () => stackConfig("prod");
    const cfg = validateConfig({ ...input(), kubernetes: { ...input().kubernetes, enabled: true } });
    const model = buildClusterModel(cfg);

    it("gives every Kubernetes node a node-id whose join address is the join base plus the id, within ovnkube's range", () => {
        assert.equal(model.writer, "ovnkube");
        const k8sNodes = cfg.nodes.filter((n) => n.roles.includes("master") || n.roles.includes("node")).map((n) => n.name);
        assert.deepEqual(
            model.kube.nodes.map((n) => n.name),
            k8sNodes,
        );
        const ids = new Set<number>();
        for (const n of model.kube.nodes) {
            assert.ok(n.nodeId >= 2 && n.nodeId <= 5000, `${n.name}: node-id ${n.nodeId}`);
            assert.equal(toInt(n.gatewayRouterJoin[0].ip), toInt("100.64.0.0") + BigInt(n.nodeId));
            assert.equal(n.subnets[0], model.nodeNetworks.find((x) => x.node === n.name)!.subnet);
            ids.add(n.nodeId);
        }
        assert.equal(ids.size, model.kube.nodes.length);
    });

    it("puts nodes with the same gateway flags in one ovnkube-node group", () => {
        const groups = model.kube.nodeGroups;
        assert.deepEqual(groups.flatMap((g) => g.nodes).sort(), model.kube.nodes.map((n) => n.name).sort());
        assert.equal(new Set(groups.map((g) => g.name)).size, groups.length);
        if (groups.length === 1) assert.equal(groups[0].name, "ovnkube-node");
        else for (const g of groups) assert.match(g.name, /^ovnkube-node-[a-z0-9-]+$/);
    });

    it("turns node identities on by default, upstream's way: the webhook on localhost, the kubelet's kubeconfig kubeadm's", () => {
        assert.deepEqual(model.kube.identity, {
            webhookAddress: "localhost",
            listen: "localhost",
            bootstrapKubeconfig: "/etc/kubernetes/kubelet.conf",
        });
    });

    it("has ovnkube-identity listen on the masters' own address when the API server calls a master's, and carries the kubeconfig's path", () => {
        const identity = { webhookAddress: "10.10.0.10", bootstrapKubeconfig: "/var/lib/kubelet/kubeconfig" };
        const withAddress = buildClusterModel(validateConfig({ ...input(), ovnkube: { ...input().ovnkube, identity } }));
        assert.deepEqual(withAddress.kube.identity, { ...identity, listen: "node" });
    });

    it("leaves node identities out when they are disabled", () => {
        const off = buildClusterModel(
            validateConfig({ ...input(), ovnkube: { ...input().ovnkube, identity: { enabled: false, webhookAddress: "10.99.0.1" } } }),
        );
        assert.equal(off.kube.identity, undefined);
        assert.ok(!("identity" in off.kube));
    });

    it("plans nothing for ovnkube when Kubernetes is disabled", () => {
        // Pulumi mode hands an https API server's token to the chassis; plain http needs none.
        const pulumiMode = buildClusterModel(
            validateConfig({
                ...input(),
                apiServer: { url: "http://10.10.0.10:8080" },
                kubernetes: { ...input().kubernetes, enabled: false },
            }),
        );
        assert.equal(pulumiMode.writer, "pulumi");
        assert.deepEqual(pulumiMode.kube.nodes, []);
        assert.equal(pulumiMode.hosts.find((h) => h.chassis)!.chassis!.writer, "pulumi");
    });
});

test("ovnkube-node groups are named as DNS-1123 labels whatever the bridge is called", () => {
    const cfg = stackConfig("prod");
    cfg.nodes[2].gateway.bridge = "Br_Ext";
    const groups = buildClusterModel(validateConfig(cfg)).kube.nodeGroups;
    assert.deepEqual(groups.map((g) => g.name).sort(), [
        "ovnkube-node-br-ext-10-10-0-1",
        "ovnkube-node-breth0-10-10-0-1",
        "ovnkube-node-default",
    ]);
});
