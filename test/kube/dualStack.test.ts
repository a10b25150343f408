// Dual stack and IPv6 only, from the stack to what ovnkube is given: the per-family flags, the
// ConfigMap's comma lists, the Node annotations and the Northbound rows the plan expects.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateConfig } from "../../components/plan/validate";
import { kubeManifests } from "../../components/kube/manifests";
import { buildClusterModel } from "../../components/model/clusterModel";
import { NB_KINDS } from "../../components/nb/kinds";
import { addressAt, contains, macFromIp, parseNetwork } from "../../components/values";
import { stackConfig } from "../../lab/harness/configs";
import { flag, main } from "./inspect";

/** The staging stack (interconnect) made dual stack: IPv4 first, a ULA of each range, a v6 address per node. */
export function dualStaging(architecture: "interconnect" | "centralized" = "interconnect"): Record<string, any> {
    const cfg = stackConfig("staging");
    cfg.clusterSubnet = "10.128.0.0/14,fd00:10:128::/48";
    cfg.hostSubnetLength = 23;
    cfg.serviceSubnet = "172.30.0.0/16,fd00:172:30::/112";
    delete cfg.joinSubnet;
    delete cfg.transitSubnet;
    delete cfg.masqueradeSubnet;
    cfg.nodes = cfg.nodes.map((n: any, i: number) => ({
        ...n,
        subnet: `${n.subnet},fd00:10:128:${i + 1}::/64`,
        nodeIp: `${n.address},fd00:10:20::${n.address.split(".")[3]}`,
    }));
    if (architecture === "centralized") {
        cfg.ovnkube = { ...cfg.ovnkube, architecture };
        cfg.nodes[0].roles = ["central", "master"];
        cfg.nodes[1].roles = ["central", "master"];
        cfg.nodes[2].roles = ["central", "master"];
    }
    return cfg;
}

describe("dual stack", () => {
    for (const architecture of ["interconnect", "centralized"] as const) {
        const cfg = validateConfig(dualStaging(architecture));
        const model = buildClusterModel(cfg);
        const m = kubeManifests(model.kube);
        const containers = [...m.nodes, m.controlPlane].map(main);

        it(`${architecture}: the families and upstream's IPv6 defaults`, () => {
            assert.deepEqual(cfg.ipFamilies, ["ipv4", "ipv6"]);
            assert.deepEqual(cfg.joinSubnets, ["100.64.0.0/16", "fd98::/64"]);
            assert.deepEqual(cfg.transitSubnets, ["100.88.0.0/16", "fd97::/64"]);
            assert.deepEqual(cfg.masqueradeSubnets, ["169.254.0.0/17", "fd69::/112"]);
            assert.deepEqual(cfg.hostSubnetLengths, [23, 64]);
        });

        it(`${architecture}: every role gets the v4 and v6 join and masquerade subnets, and the ConfigMap the chart's lists`, () => {
            for (const c of containers) {
                assert.equal(flag(c, "-gateway-v4-join-subnet"), "100.64.0.0/16");
                assert.equal(flag(c, "-gateway-v6-join-subnet"), "fd98::/64");
                assert.equal(flag(c, "-gateway-v6-masquerade-subnet"), "fd69::/112");
                assert.equal(flag(c, "-cluster-subnets"), "$(OVN_NET_CIDR)");
            }
            assert.equal(m.configMap.data!.net_cidr, "10.128.0.0/14/23,fd00:10:128::/48/64");
            assert.equal(m.configMap.data!.svc_cidr, "172.30.0.0/16,fd00:172:30::/112");
            assert.equal(m.configMap.data!.host_subnet_length, undefined);
            if (architecture === "interconnect")
                assert.ok(containers.some((c) => flag(c, "-cluster-manager-v6-transit-subnet") === "fd97::/64"));
        });

        it(`${architecture}: each Node carries a subnet of each family, and the transit address of each family`, () => {
            for (const p of m.nodePlans) {
                const a = p.metadata.annotations;
                const planned = model.kube.nodes.find((n) => n.name === p.metadata.name)!;
                const subnets = JSON.parse(a["k8s.ovn.org/node-subnets"]).default as string[];
                assert.equal(subnets.length, 2);
                assert.ok(contains(parseNetwork("10.128.0.0/14"), parseNetwork(subnets[0])), subnets[0]);
                assert.ok(contains(parseNetwork("fd00:10:128::/48"), parseNetwork(subnets[1])), subnets[1]);
                if (architecture === "interconnect")
                    assert.deepEqual(JSON.parse(a["k8s.ovn.org/node-transit-switch-port-ifaddr"]), {
                        ipv4: `${addressAt(parseNetwork("100.88.0.0/16"), planned.nodeId)}/16`,
                        ipv6: `${addressAt(parseNetwork("fd97::/64"), planned.nodeId)}/64`,
                    });
            }
        });

        it(`${architecture}: the rows ovnkube writes, in both families, MACs from the IPv4 addresses`, () => {
            const node = model.kube.nodes[3];
            const network = model.nodeNetworks.find((n) => n.node === node.name)!;
            const sw = NB_KINDS.NodeSwitch.ovnkube(network, node);
            assert.deepEqual(sw[`Logical_Switch ${node.name}`], {
                "other_config:subnet": node.subnets[0],
                "other_config:ipv6_prefix": node.subnets[1].split("/")[0],
            });
            const v4Router = addressAt(parseNetwork(node.subnets[0]), 1);
            assert.deepEqual(sw[`Logical_Router_Port rtos-${node.name}`], {
                networks: [`${v4Router}/23`, `${addressAt(parseNetwork(node.subnets[1]), 1)}/64`],
                mac: macFromIp(v4Router),
            });
            const gr = NB_KINDS.GatewayRouter.ovnkube(model, node, "chassis");
            assert.deepEqual(gr[`NAT GR_${node.name} snat 10.128.0.0/14`], { external_ip: node.gatewayIps[0] });
            assert.deepEqual(gr[`NAT GR_${node.name} snat fd00:10:128::/48`], { external_ip: node.gatewayIps[1] });
            assert.match(node.gatewayIps[1], /^fd00:10:20::/);
            assert.deepEqual(gr[`Logical_Router_Port rtoj-GR_${node.name}`].networks, [
                `100.64.${node.nodeId >> 8}.${node.nodeId & 255}/16`,
                `fd98::${node.nodeId.toString(16)}/64`,
            ]);
            const cluster = NB_KINDS.ClusterRouter.ovnkube(model);
            assert.deepEqual(cluster["Logical_Router_Port rtoj-ovn_cluster_router"], {
                networks: ["100.64.0.1/16", "fd98::1/64"],
                mac: macFromIp("100.64.0.1"),
            });
        });
    }
});

describe("IPv6 only", () => {
    const raw = stackConfig("staging");
    raw.clusterSubnet = "fd00:10:128::/48";
    delete raw.hostSubnetLength;
    raw.serviceSubnet = "fd00:172:30::/112";
    for (const k of ["joinSubnet", "transitSubnet", "masqueradeSubnet"]) delete raw[k];
    raw.nodes = raw.nodes.map((n: any, i: number) => {
        const { gateway, ...rest } = n;
        const v6 = `fd00:10:20::${n.address.split(".")[3]}`;
        return { ...rest, roles: rest.roles.filter((r: string) => r !== "gateway"), address: v6, subnet: `fd00:10:128:${i + 1}::/64` };
    });
    raw.ovnkube = { ...raw.ovnkube, identity: { webhookAddress: "localhost" } };
    const cfg = validateConfig(raw);
    const model = buildClusterModel(cfg);

    it("plans IPv6 only: node subnets, join and transit addresses, tunnel over IPv6", () => {
        assert.deepEqual(cfg.ipFamilies, ["ipv6"]);
        for (const n of model.kube.nodes) {
            assert.equal(n.subnets.length, 1);
            assert.match(n.subnets[0], /^fd00:10:128:/);
            assert.match(n.gatewayRouterJoin[0].cidr, /^fd98::[0-9a-f]+\/64$/);
            assert.match(n.transit![0].cidr, /^fd97::[0-9a-f]+\/64$/);
            assert.match(n.encapIp, /^fd00:10:20::/);
        }
        const c = main(kubeManifests(model.kube).nodes[0]);
        assert.equal(flag(c, "-gateway-v6-join-subnet"), "fd98::/64");
        assert.equal(flag(c, "-gateway-v4-join-subnet"), undefined);
        // An IPv6-only switch has its prefix and no IPv4 subnet.
        const node = model.kube.nodes[0];
        const sw = NB_KINDS.NodeSwitch.ovnkube(model.nodeNetworks[0], node);
        assert.deepEqual(sw[`Logical_Switch ${node.name}`], { "other_config:ipv6_prefix": node.subnets[0].split("/")[0] });
    });
});
