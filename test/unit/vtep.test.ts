// A VTEP gateway (role vtep) in the model, the NB rows, render's nbctl view, the status plan and
// the host script: pure parts, from the dev stack with a VTEP added.
import assert from "node:assert/strict";
import { test } from "node:test";
import { validateConfig } from "../../components/plan/validate";
import { buildClusterModel } from "../../components/model/clusterModel";
import { desiredNorthbound } from "../../components/render/northbound";
import { nbctlShow } from "../../components/render/nbctlShow";
import { plannedNbRows } from "../../components/status/plannedRows";
import { vtepScript } from "../../components/hosts/scripts/vtepScript";
import { vtepBindingsProvider } from "../../components/hosts/vtepBindings";
import { stackConfig } from "../../lab/harness/configs";

function devWithVtep() {
    const cfg = stackConfig("dev");
    cfg.nodes.push({
        name: "tor1",
        address: "10.0.0.20",
        roles: ["vtep"],
        hostKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ7N7bvlg8vv0BoBBSy8J6wUnfGkbkoAi9kT6iWUu2jQ tor1",
        vtep: {
            ports: [
                {
                    name: "eth1",
                    bindings: [
                        { vlan: 100, logicalSwitch: "kube-minion1" },
                        { vlan: 0, logicalSwitch: "kube-master" },
                    ],
                },
                { name: "eth2", bindings: [{ vlan: 100, logicalSwitch: "kube-minion1" }] },
            ],
        },
    });
    return buildClusterModel(validateConfig(cfg));
}

test("model: the VTEP is no chassis; every chassis lists vxlan after geneve; one vtep port per logical switch", () => {
    const model = devWithVtep();
    const tor = model.hosts.find((h) => h.name === "tor1")!;
    assert.equal(tor.isChassis, false);
    assert.deepEqual(tor.packages, ["openvswitch-common", "openvswitch-switch", "openvswitch-vtep", "ovn-common", "ovn-controller-vtep"]);
    for (const h of model.hosts.filter((x) => x.isChassis)) assert.equal(h.chassis!.encapType, "geneve,vxlan");
    assert.deepEqual(model.vteps[0].switchPorts, [
        { switchName: "kube-minion1", port: "vtep-tor1-kube-minion1" },
        { switchName: "kube-master", port: "vtep-tor1-kube-master" },
    ]);
    assert.equal(model.vteps[0].sbAddress, "tcp:10.0.0.10:6642");
    // Without a VTEP the chassis keep the stack's encap alone.
    const plain = buildClusterModel(validateConfig(stackConfig("dev")));
    assert.ok(plain.hosts.filter((h) => h.isChassis).every((h) => h.chassis!.encapType === "geneve"));
    assert.deepEqual(plain.vteps, []);
});

test("NB rows: type=vtep ports with addresses unknown, the two options, owned and on the node's switch; render and status show them", () => {
    const model = devWithVtep();
    const groups = desiredNorthbound(model, "ovn-kubernetes/dev");
    const vtep = groups.find((g) => g.resource === "VtepGateway")!;
    assert.equal(vtep.name, "tor1");
    const port = vtep.rows.find((r) => r.columns.name === "vtep-tor1-kube-minion1")!;
    assert.deepEqual(port.columns, { name: "vtep-tor1-kube-minion1", type: "vtep", addresses: ["unknown"] });
    assert.deepEqual(port.maps.options, { "vtep-physical-switch": "tor1", "vtep-logical-switch": "kube-minion1" });
    assert.equal(port.maps.external_ids["pulumi-group"], "vtep/tor1");
    assert.deepEqual(port.parent, { group: "node/kube-minion1", key: "switch", table: "Logical_Switch" });
    assert.match(
        nbctlShow(groups),
        /switch \(kube-minion1\)[\s\S]*?    port vtep-tor1-kube-minion1\n        type: vtep\n        addresses: \["unknown"\]\n/,
    );
    assert.deepEqual(plannedNbRows(model)[0].rows["Logical_Switch_Port vtep-tor1-kube-master"], {
        type: "vtep",
        "options:vtep-physical-switch": "tor1",
        "options:vtep-logical-switch": "kube-master",
    });
});

test("host script: ports as quoted lines, no bindings (the bindings resource's); delete names only the switch; a bad value is refused before any command exists", async () => {
    const model = devWithVtep();
    const script = vtepScript(model.vteps[0]);
    assert.match(script.create, /^ports='eth1\neth2'$/m);
    assert.doesNotMatch(script.create, /bindings=|bind-ls 'tor1'/);
    assert.match(script.create, /^tunnel_ip='10\.0\.0\.20'$/m);
    assert.match(script.create, /run\.sh vtep-daemons boot-pieces boot-entry vtep-create$/m);
    assert.doesNotMatch(script.delete!, /ports=|tunnel_ip=/);
    assert.throws(() => vtepScript({ ...model.vteps[0], physicalSwitch: "tor1;reboot" }), /vteps\[tor1\]\.physicalSwitch/);
    // The bindings' provider checks its inputs at preview, before it logs in anywhere.
    const { physicalSwitch, ports, bindings } = model.vteps[0];
    await assert.rejects(
        vtepBindingsProvider.check!(
            {},
            { physicalSwitch, ports, bindings: [...bindings, { port: "eth1", vlan: 4095, logicalSwitch: "kube-master" }] },
        ),
        /vteps\[tor1\]\.bindings\[3\]\.vlan must be an integer from 0 to 4094, got 4095/,
    );
    await assert.rejects(
        vtepBindingsProvider.check!({}, { physicalSwitch, ports, bindings: [{ port: "eth1", vlan: 5, logicalSwitch: "x;reboot" }] }),
        /vteps\[tor1\]\.bindings\[0\]\.logicalSwitch/,
    );
});
