// The plan's expectations of ovnkube's rows (each NB kind's ovnkube projection), built from the model: keys that the expectation
// resource accepts, values that are the model's addresses.
import assert from "node:assert/strict";
import { test } from "node:test";
import { validateConfig } from "../../components/plan/validate";
import { buildClusterModel } from "../../components/model/clusterModel";
import { checkExpectation } from "../../components/nb/expectation/expectationInputs";
import { NB_KINDS } from "../../components/nb/kinds";
import { expectedCells } from "../../components/nb/kinds/common";
import { NODE_ROWS, nodeSwitchRows } from "../../components/nb/kinds/nodeSwitch";
import { fromInt, macFromIp, toInt } from "../../components/values";
import { stackConfig } from "../../lab/harness/configs";

const { ClusterRouter, NodeSwitch, GatewayRouter } = NB_KINDS;
const model = buildClusterModel(validateConfig(stackConfig("prod")));
/** Interconnect: every zone's NB also holds its end of the transit switch. */
const staging = buildClusterModel(validateConfig(stackConfig("staging")));
const nb = {
    ssh: { host: "10.0.0.1", port: 22, user: "root", insecureIgnoreHostKey: true },
    privateKey: "-----BEGIN OPENSSH PRIVATE KEY-----\nx\n-----END OPENSSH PRIVATE KEY-----\n",
    socket: "/var/run/ovn/ovnnb_db.sock",
};

test("every expectation the ovnkube topology creates passes the expectation resource's check", () => {
    const all = [
        ClusterRouter.ovnkube(model),
        ...staging.kube.nodes.map((n) => ClusterRouter.ovnkube(staging, n)),
        ...model.nodeNetworks.map((n) => NodeSwitch.ovnkube(n)),
        ...model.kube.nodes.map((n) => GatewayRouter.ovnkube(model, n, "chassis-" + n.name)),
    ];
    for (const rows of all) {
        const r = checkExpectation({ nb, subject: "s", rows });
        assert.deepEqual(r.failures ?? [], [], JSON.stringify(rows));
    }
});

test("the values are the plan: node subnet and router port, gateway join at base + node-id, SNAT to the gateway address", () => {
    const worker = model.kube.nodes.find((n) => n.name === "worker-0")!;
    assert.deepEqual(NodeSwitch.ovnkube(model.nodeNetworks.find((n) => n.node === "worker-0")!), {
        "Logical_Switch worker-0": { "other_config:subnet": "10.128.2.0/23" },
        "Logical_Router_Port rtos-worker-0": { networks: "10.128.2.1/23", mac: "0a:58:0a:80:02:01" },
    });
    const gw = GatewayRouter.ovnkube(model, worker, "abc");
    assert.deepEqual(gw["Logical_Router GR_worker-0"], { "options:chassis": "abc" });
    assert.equal(gw["Logical_Router_Port rtoj-GR_worker-0"].networks, `${worker.gatewayRouterJoin[0].ip}/16`);
    assert.deepEqual(gw["NAT GR_worker-0 snat 10.128.0.0/14"], { external_ip: "10.10.0.20" });
});

test("interconnect: each zone's end of the transit switch at the cluster manager's address for its node-id; centralized: none", () => {
    const worker = staging.kube.nodes.find((n) => n.name === "worker-0")!;
    const transitIp = fromInt(toInt("100.88.0.0") + BigInt(worker.nodeId));
    assert.deepEqual(ClusterRouter.ovnkube(staging, worker), {
        ...ClusterRouter.ovnkube(staging),
        "Logical_Switch transit_switch": { name: "transit_switch" },
        "Logical_Router_Port rtots-worker-0": { networks: `${transitIp}/16`, mac: macFromIp(transitIp) },
    });
    for (const n of model.kube.nodes) assert.deepEqual(ClusterRouter.ovnkube(model, n), ClusterRouter.ovnkube(model), n.name);
});

test("a kind's projection takes cells from its own rows: named as the rows are, a one-element set as its atom; a set of several is refused", () => {
    const network = model.nodeNetworks.find((n) => n.node === "worker-0")!;
    const specs = nodeSwitchRows("o/s", network);
    assert.deepEqual(expectedCells(specs, { [NODE_ROWS.mgmtPort]: ["addresses", "type"] }), {
        "Logical_Switch_Port k8s-worker-0": { addresses: `${network.mgmt.mac} ${network.mgmt.ip}`, type: "" },
    });
    const twoNetworks = specs.map((s) =>
        s.key === NODE_ROWS.routerPort ? { ...s, columns: { ...s.columns, networks: ["10.0.0.1/24", "10.0.1.1/24"] } } : s,
    );
    assert.throws(
        () => expectedCells(twoNetworks, { [NODE_ROWS.routerPort]: ["networks"] }),
        /Logical_Router_Port rtos-worker-0 has no single value at networks/,
    );
});
