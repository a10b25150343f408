// Every generated script, for a range of models, is valid bash that shellcheck accepts, carries
// no secret, and a model value with shell metacharacters makes the generator throw naming it.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as scripts from "../../components/hosts/scripts";
import type { HostScript } from "../../components/hosts/scripts";
import { lintScript, runLocal } from "./support/bash";
import { bashBody, inlineCommand } from "../../components/hosts/scripts/shell";
import { BUNDLE_ROOT, COMMAND_LOG_DIR } from "../../components/hosts/scripts/bundle";
import { GatewayMode } from "../../components/config/types";
import { hostFactsScript } from "../../components/hosts/hostFacts";
import {
    SECRETS,
    centralModel,
    clusteredCentralModel,
    gatewayModel,
    hostModel,
    nodeNetworkModel,
    packagesConfigs,
    rhelHost,
} from "./fixtures";

const tcp = { nbAddress: "tcp:10.0.0.1:6641", sbAddress: "tcp:10.0.0.1:6642" };
const ssl = { nbAddress: "ssl:10.0.0.1:6641", sbAddress: "ssl:10.0.0.1:6642" };

function allScripts(): Record<string, HostScript> {
    const out: Record<string, HostScript> = {};
    for (const [label, host] of [
        ["debian", hostModel()],
        ["rhel", rhelHost()],
    ] as const) {
        for (const [config, packages] of Object.entries(packagesConfigs))
            out[`packages/${label}/${config}`] = scripts.packagesScript(host, packages);
        out[`ovs/${label}`] = scripts.ovsStartScript(host);
        out[`chassis/${label}/tcp`] = scripts.chassisScript(host, tcp);
        out[`chassis/${label}/ssl`] = scripts.chassisScript(host, ssl);
        out[`ipsec/${label}`] = scripts.ipsecScript({ ...host, zone: host.name, ipsec: true });
    }
    out["packages/rhel/repo"] = scripts.packagesScript(rhelHost(), {
        repository: { name: "ovs", url: "https://example.org/el9/" },
        ovnVersion: "23.09.0-1.el9",
    });
    out["central/tcp"] = scripts.centralScript(centralModel(false));
    out["central/ssl"] = scripts.centralScript(centralModel(true), "rhel");
    out["central-member/first/tcp"] = scripts.centralMemberScript(clusteredCentralModel(false), "central1");
    out["central-member/joining/ssl"] = scripts.centralMemberScript(clusteredCentralModel(true), "central3");
    out["mgmt"] = scripts.managementPortScript(nodeNetworkModel());
    out["vtep"] = scripts.vtepScript({
        host: "tor1",
        physicalSwitch: "tor1",
        tunnelIp: "10.0.0.20",
        datapathType: "netdev",
        sbAddress: "tcp:10.0.0.1:6642",
        ports: ["eth1"],
        bindings: [{ port: "eth1", vlan: 100, logicalSwitch: "node1" }],
        switchPorts: [{ switchName: "node1", port: "vtep-tor1-node1" }],
    });
    out["vxlan-mode"] = scripts.vxlanModeScript();
    out["gateway/shared"] = scripts.gatewayBridgeScript(gatewayModel("shared"), "netdev");
    out["gateway/dedicated"] = scripts.gatewayBridgeScript(gatewayModel("dedicated"), "system");
    out["flows/shared"] = scripts.gatewayFlowsScript(gatewayModel("shared"));
    out["gateway/confirm"] = {
        create: scripts.gatewayConfirmScript(gatewayModel("shared"), "0f6c5a52-5c57-4a8b-9d5e-3e0c1f6b2a11", "node1-gw-bridge"),
    };
    return out;
}

const texts = Object.entries(allScripts()).flatMap(([name, s]) =>
    (["create", "update", "delete"] as const).filter((k) => s[k] !== undefined).map((k) => [`${name}.${k}`, s[k] as string] as const),
);

test("every generated script passes bash -n and shellcheck -s bash, as the program it runs from the bundle", () => {
    assert.ok(texts.length >= 30, `only ${texts.length} scripts`);
    const syntax = texts
        .map(([name, text]) => [name, runLocal(["bash", "-n"], text)] as const)
        .filter(([, r]) => r.code !== 0)
        .map(([name, r]) => `${name}: ${r.stderr}`);
    assert.deepEqual(syntax, []);
    const problems = texts.flatMap(([name, text]) => lintScript(inlineCommand(text)).map((p) => `${name}: ${p}`));
    assert.deepEqual(problems, []);
});

test("every script runs as strict bash without tracing: run.sh sets strict mode before any body", () => {
    assert.match(bashBody("run"), /^(#.*\n)+set -euo pipefail\nexport LC_ALL=C\n/);
    for (const [name, text] of texts) {
        assert.match(inlineCommand(text), /^#!\/usr\/bin\/env bash\nset -euo pipefail\nexport LC_ALL=C\n/, name);
        assert.doesNotMatch(text, /set -[a-z]*x|xtrace/, name);
    }
});

test("the NIC handover check's program stands alone: a preview runs it before the up that installs a new bundle", () => {
    for (const role of ["tunnel", "gateway"] as const) {
        const program = scripts.nicHandoverScript({ node: "node1", interface: "eth0", bridge: "breth0", mode: GatewayMode.shared, role });
        assert.ok(!program.includes(BUNDLE_ROOT), "it names no bundle");
        assert.equal(runLocal(["bash", "-n"], program).code, 0);
        assert.deepEqual(lintScript(program), []);
    }
});

test("the host facts read stands alone and passes shellcheck, with and without a repository and a gateway", () => {
    for (const plan of [
        { node: "node1" },
        { node: "node1", packages: { os: "debian" as const, repository: "ovn-extra" } },
        {
            node: "rhel1",
            packages: { os: "rhel" as const, repository: "ovn-extra" },
            gateway: { interface: "eth0", bridge: "breth0", physicalIp: "10.0.0.11/24" },
        },
    ]) {
        const program = hostFactsScript(plan);
        assert.ok(!program.includes(BUNDLE_ROOT), "it names no bundle");
        assert.equal(runLocal(["bash", "-n"], program).code, 0);
        assert.deepEqual(lintScript(program), []);
    }
    assert.throws(() => hostFactsScript({ node: "node1", packages: { os: "debian", repository: "a b" } }), /packages\.repository\.name/);
    assert.throws(
        () => hostFactsScript({ node: "node1", gateway: { interface: "eth0;reboot", bridge: "breth0", physicalIp: "10.0.0.11/24" } }),
        /gateways\[node1\]\.interface/,
    );
});

test("no secret value (or its base64) appears in any script", () => {
    const needles = Object.values(SECRETS).flatMap((s) => [s, s.trim().split("\n")[1], Buffer.from(s).toString("base64")]);
    for (const [name, text] of texts) for (const needle of needles) assert.ok(!text.includes(needle), `${name} contains a secret`);
});

test("scripts carry the model's values, quoted", () => {
    const chassis = scripts.chassisScript(hostModel(), tcp).create;
    assert.match(chassis, /^ovn_remote='tcp:10\.0\.0\.1:6642'$/m);
    assert.match(chassis, /^bridge_mappings='physnet:breth0'$/m);
    assert.match(scripts.chassisScript(rhelHost(), tcp).create, /^bridge_mappings=''$/m, "absent mapping → empty → key removed");
    assert.match(
        scripts.packagesScript(hostModel(), packagesConfigs.pinned).create,
        /^wanted='openvswitch-common=3\.1\.0-2\+deb12u1 openvswitch-switch=3\.1\.0-2\+deb12u1 ovn-common=23\.03\.1-1~deb12u2 ovn-host=23\.03\.1-1~deb12u2'$/m,
    );
    assert.match(scripts.gatewayFlowsScript(gatewayModel()).create, /^patch_port='patch-breth0_node1-to-br-int'$/m);
    assert.match(scripts.gatewayFlowsScript(gatewayModel()).create, /^ct_zone='64000'$/m);
});

// Values that bypass validation (a hand-built model) must stop at the shell boundary.
const EVIL = ["$(touch /tmp/x)", "`id`", "eth0; reboot", "a'b", 'a"b', "eth0\nrm -rf /", "-rf", "breth0 x"];

function throwsNaming(make: () => unknown, field: RegExp, label: string): void {
    assert.throws(make, (e: Error) => field.test(e.message) && e.message.startsWith("hosts: "), label);
}

test("metacharacters in any model field make the generator throw, naming the field", () => {
    for (const evil of EVIL) {
        const l = JSON.stringify(evil);
        throwsNaming(
            () => scripts.gatewayBridgeScript(gatewayModel("shared", { interface: evil }), "netdev"),
            /gateways\[node1\]\.interface/,
            l,
        );
        throwsNaming(() => scripts.gatewayBridgeScript(gatewayModel("shared", { bridge: evil }), "netdev"), /gateways\[node1\]\.bridge/, l);
        throwsNaming(() => scripts.gatewayFlowsScript(gatewayModel("shared", { uplinkPort: evil })), /gateways\[node1\]\.uplinkPort/, l);
        throwsNaming(() => scripts.gatewayBridgeScript(gatewayModel("shared", { node: evil }), "netdev"), /gateway\.node/, l);
        throwsNaming(
            () => scripts.managementPortScript(nodeNetworkModel({ mgmtInterface: evil })),
            /nodeNetworks\[node1\]\.mgmtInterface/,
            l,
        );
        throwsNaming(() => scripts.managementPortScript(nodeNetworkModel({ mgmtPort: evil })), /nodeNetworks\[node1\]\.mgmtPort/, l);
        throwsNaming(() => scripts.managementPortScript(nodeNetworkModel({ clusterSubnet: evil })), /clusterSubnet/, l);
        throwsNaming(
            () => scripts.managementPortScript(nodeNetworkModel({ mgmt: { ip: "10.128.1.2", cidr: evil, mac: "0a:58:0a:80:01:02" } })),
            /mgmt\.cidr/,
            l,
        );
        throwsNaming(
            () => scripts.managementPortScript(nodeNetworkModel({ mgmt: { ip: "10.128.1.2", cidr: "10.128.1.2/24", mac: evil } })),
            /mgmt\.mac/,
            l,
        );
        throwsNaming(
            () => scripts.chassisScript(hostModel({ chassis: { ...hostModel().chassis!, encapIp: evil } }), tcp),
            /hosts\[node1\]\.chassis\.encapIp/,
            l,
        );
        throwsNaming(
            () => scripts.chassisScript(hostModel({ chassis: { ...hostModel().chassis!, k8sApiServer: evil } }), tcp),
            /chassis\.k8sApiServer/,
            l,
        );
        throwsNaming(
            () => scripts.chassisScript(hostModel({ chassis: { ...hostModel().chassis!, bridgeMappings: evil } }), tcp),
            /chassis\.bridgeMappings/,
            l,
        );
        throwsNaming(() => scripts.chassisScript(hostModel(), { ...tcp, sbAddress: evil }), /sbAddress/, l);
        throwsNaming(() => scripts.chassisScript(hostModel({ name: evil }), tcp), /host\.name/, l);
        throwsNaming(() => scripts.centralScript({ ...centralModel(), nbListener: evil }), /central\.nbListener/, l);
        throwsNaming(() => scripts.packagesScript(hostModel({ packages: ["ovn-host", evil] }), {}), /hosts\[node1\]\.packages\[1\]/, l);
        throwsNaming(() => scripts.packagesScript(hostModel(), { ovnVersion: evil }), /packages\.ovnVersion/, l);
        throwsNaming(
            () => scripts.packagesScript(hostModel(), { repository: { name: "r", url: evil, apt: { suite: "s", components: "main" } } }),
            /packages\.repository\.url/,
            l,
        );
        throwsNaming(() => scripts.ovsStartScript(hostModel({ datapathType: evil as "netdev" })), /datapathType/, l);
    }
});

test("inconsistent models are refused before anything runs", () => {
    assert.throws(() => scripts.centralScript({ ...centralModel(false), nbListener: "pssl:6641:10.0.0.1" }), /must start with ptcp:/);
    assert.throws(() => scripts.centralScript({ ...centralModel(false), sbListener: "ptcp:6642:10.0.0.2" }), /same address/);
    assert.throws(
        () => scripts.centralScript({ ...centralModel(false), nbListener: "ptcp:6641" }),
        /central\.nbListener must be an OVSDB listener/,
    );
    assert.throws(() => scripts.chassisScript(hostModel({ isChassis: false, chassis: undefined }), tcp), /not a chassis/);
    assert.throws(() => scripts.gatewayFlowsScript(gatewayModel("dedicated")), /must be shared/);
    assert.throws(() => scripts.gatewayBridgeScript(gatewayModel("shared", { bridge: "eth0" }), "netdev"), /must differ/);
    assert.throws(() => scripts.managementPortScript(nodeNetworkModel({ mtu: 100000 })), /mtu must be an integer/);
    assert.throws(
        () => scripts.packagesScript(hostModel(), { repository: { name: "r", url: "https://x.org/" } }),
        /apt \(suite, components\) is required/,
    );
});

test("results are read from the last stdout line and checked", () => {
    assert.equal(scripts.parseSystemId("noise\n6d55e3c7-536d-46b2-a9f3-d75b6ca24174\n"), "6d55e3c7-536d-46b2-a9f3-d75b6ca24174");
    assert.equal(scripts.parseNicMac("c6:05:1d:ca:61:14\n\n"), "c6:05:1d:ca:61:14");
    assert.throws(() => scripts.parseNicMac("not a mac"), /NIC MAC/);
    assert.throws(() => scripts.parseSystemId(""), /system-id/);
});

test("a clustered central member's script carries its own address, the others as peers, and refuses bad values naming them", () => {
    const joining = scripts.centralMemberScript(clusteredCentralModel(true), "central2").create;
    assert.match(joining, /^member_ip='10\.0\.0\.2'$/m);
    assert.match(joining, /^peer_ips='10\.0\.0\.1 10\.0\.0\.3'$/m);
    assert.match(joining, /^bootstrap='no'$/m);
    assert.match(joining, /^proto='ssl'$/m);
    assert.match(scripts.centralMemberScript(clusteredCentralModel(), "central1").create, /^bootstrap='yes'$/m);
    const bad = clusteredCentralModel();
    bad.cluster!.members[1].ip = "10.0.0.2; reboot";
    assert.throws(() => scripts.centralMemberScript(bad, "central1"), /central\.cluster\.members\[1\]\.ip must be/);
    const port = clusteredCentralModel();
    port.cluster!.nbRaftPort = 70000;
    assert.throws(() => scripts.centralMemberScript(port, "central1"), /central\.cluster\.nbRaftPort must be an integer from 1 to 65535/);
    assert.throws(() => scripts.centralMemberScript(clusteredCentralModel(), "central9"), /central9 is not a member/);
    assert.throws(() => scripts.centralMemberScript(centralModel(), "central"), /central\.cluster is required/);
});

test("the bundle's runner writes its logs where the package says it does", () => {
    assert.match(bashBody("run"), new RegExp(`^run_log_dir=${COMMAND_LOG_DIR}$`, "m"));
});
