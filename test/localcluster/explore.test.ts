// The demo's explore commands: run inside the hosts that serve the databases (every zone's node
// with interconnect, the central otherwise), with the cluster id when it is not the default.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildClusterModel } from "../../components/model/clusterModel";
import { validateConfig } from "../../components/plan/validate";
import { exploreCommands } from "../../lab/localcluster/explore";
import { stackConfig } from "../../lab/harness/configs";

const modelOf = (stack: "dev" | "prod" | "staging", edit: (cfg: Record<string, any>) => void = () => {}) => {
    const cfg = stackConfig(stack);
    edit(cfg);
    return buildClusterModel(validateConfig(cfg));
};

test("interconnect: every zone's node, its own NB and SB", () => {
    const model = modelOf("staging");
    assert.equal(model.architecture, "interconnect");
    assert.deepEqual(
        model.hosts.filter((h) => h.zone).map((h) => h.name),
        ["master-0", "master-1", "master-2", "worker-0", "worker-1"],
    );
    const lines = exploreCommands("local", model).map((c) => c.line);
    assert.equal(lines.length, 10);
    assert.deepEqual(lines.slice(-2), [
        "npm run local -- exec worker-1 -- ovn-nbctl show",
        "npm run local -- exec worker-1 -- ovn-sbctl show",
    ]);
    assert.deepEqual(
        new Set(exploreCommands("local", model).map((c) => c.host)),
        new Set(model.hosts.filter((h) => h.zone).map((h) => h.name)),
    );
});

test("centralized and Pulumi mode: the central only; another cluster id is named", () => {
    const pulumi = exploreCommands("lab2", modelOf("dev"));
    assert.deepEqual(pulumi, [
        { host: "kube-master", argv: ["ovn-nbctl", "show"], line: "npm run local -- exec --id lab2 kube-master -- ovn-nbctl show" },
        { host: "kube-master", argv: ["ovn-sbctl", "show"], line: "npm run local -- exec --id lab2 kube-master -- ovn-sbctl show" },
    ]);
    assert.deepEqual(
        exploreCommands("local", modelOf("prod")).map((c) => c.line),
        ["npm run local -- exec ovn-central -- ovn-nbctl show", "npm run local -- exec ovn-central -- ovn-sbctl show"],
    );
});

test("several centrals: the first one, which may be a follower, is asked to answer anyway", () => {
    const model = modelOf("dev", (cfg) => {
        for (const n of cfg.nodes) n.roles = n.roles.includes("central") ? n.roles : ["central", ...n.roles];
    });
    assert.ok(model.central?.cluster);
    assert.deepEqual(
        exploreCommands("local", model).map((c) => c.argv),
        [
            ["ovn-nbctl", "--no-leader-only", "show"],
            ["ovn-sbctl", "--no-leader-only", "show"],
        ],
    );
});

test("OVN from the image: the hosts have only Open vSwitch's ovsdb-client, which reads each zone's databases at the pod's sockets", () => {
    const model = modelOf("staging", (cfg) => {
        cfg.ovnkube = { ...cfg.ovnkube, ovnSource: "image" };
        delete cfg.packages.ovnVersion;
    });
    assert.deepEqual(
        exploreCommands("local", model)
            .slice(0, 2)
            .map((c) => c.line),
        [
            "npm run local -- exec master-0 -- ovsdb-client dump unix:/var/run/ovn/ovnnb_db.sock OVN_Northbound Logical_Switch name",
            "npm run local -- exec master-0 -- ovsdb-client dump unix:/var/run/ovn/ovnsb_db.sock OVN_Southbound Chassis hostname",
        ],
    );
});
