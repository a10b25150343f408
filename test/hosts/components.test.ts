// The host parts and components under Pulumi's mock runtime: which remote.Command resources they
// create, under which names and parents, with what scripts, and that connection and stdin stay secret.
// Mocks first, then the components are imported dynamically (the SDK's documented order).
import assert from "node:assert/strict";
import { before, test } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { SECRETS, centralModel, gatewayModel, hostModel, nodeNetworkModel, rhelHost } from "./fixtures";
// Pure script text helpers: no Pulumi resource in them.
import { inlineCommand } from "../../components/hosts/scripts/shell";

interface Created {
    type: string;
    name: string;
    urn: string;
    inputs: Record<string, unknown>;
}
const created: Created[] = [];

/** Fake results of the host scripts: what the real ones print last. */
const FAKE_STDOUT: Record<string, string> = {
    "-controller": "log line\n0f6c5a52-5c57-4a8b-9d5e-3e0c1f6b2a11\n",
    "-bridge": "confirm-token 0f6c5a52-5c57-4a8b-9d5e-3e0c1f6b2a11\nc6:05:1d:ca:61:14\n",
};

let hosts: typeof import("../../components/hosts");

before(async () => {
    await pulumi.runtime.setMocks(
        {
            newResource(args: pulumi.runtime.MockResourceArgs) {
                created.push({ type: args.type, name: args.name, urn: "", inputs: args.inputs });
                const stdout = Object.entries(FAKE_STDOUT).find(([suffix]) => args.name.endsWith(suffix))?.[1] ?? "";
                return { id: `${args.name}-id`, state: { ...args.inputs, stdout, stderr: "" } };
            },
            call: (args: pulumi.runtime.MockCallArgs) => args.inputs,
        },
        "project",
        "stack",
        false,
    );
    hosts = await import("../../components/hosts");
});

/** Resolve an Output (or plain value) under mocks, with its secretness. */
async function unwrap<T>(value: pulumi.Input<T>): Promise<{ value: T; secret: boolean }> {
    const out = pulumi.output(value);
    const secret = await (out as unknown as { isSecret: Promise<boolean> }).isSecret;
    const v = await new Promise<T>((resolve) => out.apply((x) => resolve(x as T)));
    return { value: v, secret };
}

const connection = pulumi.output({
    host: "10.0.0.11",
    port: 22,
    user: "root",
    privateKey: pulumi.secret("-----BEGIN OPENSSH PRIVATE KEY-----SECRETKEY"),
});

/** What a node's parts are children of, as in the cluster. */
const cluster = new pulumi.ComponentResource("ovn-kubernetes:index:OvnKubernetesCluster", "ovn");

/** The remote.Command resources a part or component holds: names, parent (by URN: the component itself, or the parts' parent), inputs. */
async function commandsOf(
    holder: object,
    parent: pulumi.Resource = holder as pulumi.Resource,
): Promise<Array<{ name: string; command: import("@pulumi/command").remote.Command; urn: string }>> {
    const urn = await unwrap(parent.urn);
    const children = Object.values(holder).filter(
        (v): v is import("@pulumi/command").remote.Command => v instanceof require("@pulumi/command").remote.Command,
    );
    const result = [];
    for (const command of children) {
        const childUrn = (await unwrap(command.urn)).value;
        result.push({ name: childUrn.split("::").pop()!, command, urn: childUrn });
    }
    // A child's URN type chain starts with its parent's type: proves `parent: this`.
    const parentType = urn.value.split("::")[2];
    for (const r of result)
        assert.ok(r.urn.split("::")[2].startsWith(`${parentType}$command:remote:Command`), `${r.urn} is not a child of ${urn.value}`);
    return result;
}

async function assertSecretConnection(command: import("@pulumi/command").remote.Command): Promise<void> {
    const c = await unwrap(command.connection);
    assert.equal(c.secret, true, "connection must be secret");
}

test("Central over ssl: OVS first, then databases with the SSL material as secret stdin", async () => {
    const c = new hosts.Central("central", {
        central: centralModel(true),
        connection,
        datapathType: "netdev",
        ssl: { privateKey: pulumi.secret(SECRETS.key), certificate: pulumi.secret(SECRETS.cert), caCertificate: pulumi.secret(SECRETS.ca) },
    });
    const cmds = await commandsOf(c);
    assert.deepEqual(cmds.map((x) => x.name).sort(), ["central-databases", "central-ovs"]);
    const db = cmds.find((x) => x.name === "central-databases")!.command;
    await assertSecretConnection(db);
    const stdin = await unwrap(db.stdin);
    assert.equal(stdin.secret, true, "stdin must be secret");
    assert.match(stdin.value!, /^ssl-private-key [A-Za-z0-9+/=]+\nssl-certificate [A-Za-z0-9+/=]+\nssl-ca-certificate [A-Za-z0-9+/=]+\n$/);
    const create = (await unwrap(db.create)).value!;
    for (const s of Object.values(SECRETS)) assert.ok(!create.includes(s.split("\n")[1] ?? s));
    assert.match(inlineCommand((await unwrap(db.delete)).value!), /del-connection/);
    assert.equal((await unwrap(c.nbListener)).value, "pssl:6641:10.0.0.1");
    assert.throws(
        () => new hosts.Central("central-nossl", { central: centralModel(true), connection }),
        /ssl \(privateKey, certificate, caCertificate\) is required/,
    );
});

test("Chassis: OVS then controller; system-id from the last stdout line; k8s secrets on stdin", async () => {
    const ch = new hosts.Chassis(
        "rhel1-chassis",
        {
            host: rhelHost(),
            nbAddress: "tcp:10.0.0.1:6641",
            sbAddress: "tcp:10.0.0.1:6642",
            connection,
            k8sApiToken: pulumi.secret(SECRETS.token),
            k8sCaCertificate: pulumi.secret(SECRETS.ca),
        },
        { parent: cluster },
    );
    const cmds = await commandsOf(ch, cluster);
    // Open vSwitch starts in the controller's command, the chassis' first without a NIC to move.
    assert.deepEqual(cmds.map((x) => x.name).sort(), ["rhel1-chassis-controller"]);
    assert.match((await unwrap(ch.controller.create)).value!, /run\.sh ovs-start ovn-ctl secrets chassis-create$/m);
    const controller = ch.controller;
    const stdin = await unwrap(controller.stdin);
    assert.equal(stdin.secret, true);
    assert.deepEqual(
        stdin.value!.split("\n").map((l) => l.split(" ")[0]),
        ["k8s-api-token", "k8s-ca-certificate", ""],
    );
    assert.equal(Buffer.from(stdin.value!.split("\n")[0].split(" ")[1], "base64").toString(), SECRETS.token);
    assert.equal((await unwrap(ch.systemId)).value, "0f6c5a52-5c57-4a8b-9d5e-3e0c1f6b2a11");
    await assertSecretConnection(controller);
    assert.throws(
        () =>
            new hosts.Chassis(
                "no-token",
                { host: rhelHost(), nbAddress: "tcp:10.0.0.1:6641", sbAddress: "tcp:10.0.0.1:6642", connection },
                { parent: cluster },
            ),
        /k8sApiToken and k8sCaCertificate are required/,
    );
});

test("Chassis over plain http and tcp needs no stdin at all", async () => {
    const ch = new hosts.Chassis(
        "node1-chassis",
        { host: hostModel(), nbAddress: "tcp:10.0.0.1:6641", sbAddress: "tcp:10.0.0.1:6642", connection },
        { parent: cluster },
    );
    assert.equal((await unwrap(ch.controller.stdin)).value, undefined);
});

test("ManagementPort: one command, replaced (delete first) when the interface is renamed", async () => {
    const m = new hosts.ManagementPort("node1-mgmt", { network: nodeNetworkModel(), connection }, { parent: cluster });
    const cmds = await commandsOf(m, cluster);
    assert.deepEqual(
        cmds.map((x) => x.name),
        ["node1-mgmt-mgmt-port"],
    );
    assert.deepEqual((await unwrap(m.port.triggers)).value, ["k8s-node1"]);
    assert.match((await unwrap(m.port.delete)).value!, /^mgmt_if='k8s-node1'$/m);
});

test("GatewayHost outputs the NIC MAC; GatewayFlows is a separate component", async () => {
    const g = new hosts.GatewayHost("node1-gw", { gateway: gatewayModel("shared"), connection, datapathType: "netdev" });
    const cmds = await commandsOf(g);
    assert.deepEqual(cmds.map((x) => x.name).sort(), ["node1-gw-bridge", "node1-gw-bridge-confirm"]);
    assert.equal((await unwrap(g.macAddress)).value, "c6:05:1d:ca:61:14");
    // The confirmation is a second command (a new SSH login) carrying the token the move printed.
    const confirm = (await unwrap(g.confirm.create)).value!;
    assert.match(confirm, /^token='0f6c5a52-5c57-4a8b-9d5e-3e0c1f6b2a11'$/m);
    assert.match(confirm, /^move_resource='node1-gw-bridge'$/m);
    assert.equal((await unwrap(g.confirm.delete)).value, undefined, "nothing to undo: the move's delete undoes the move");
    await assertSecretConnection(g.confirm);
    assert.deepEqual((await unwrap(g.bridge.triggers)).value, ["shared", "eth0", "breth0", "netdev"]);
    await assertSecretConnection(g.bridge);
    const f = new hosts.GatewayFlows("node1-gw-flows", { gateway: gatewayModel("shared"), connection }, { dependsOn: [g] });
    const flows = await commandsOf(f);
    assert.deepEqual(
        flows.map((x) => x.name),
        ["node1-gw-flows-flows"],
    );
    assert.match((await unwrap(f.flows.create)).value!, /patch-breth0_node1-to-br-int/);
});

test("the engine sees every component token and only secret connections and stdin", async () => {
    const g = new hosts.GatewayHost("tok-gw", { gateway: gatewayModel("dedicated"), connection, datapathType: "system" });
    assert.match((await unwrap(g.urn)).value, /::ovn-kubernetes:hosts:GatewayHost::tok-gw$/);
    const types = new Set(created.map((c) => c.type));
    for (const t of ["Central", "GatewayHost", "GatewayFlows"]) assert.ok(types.has(`ovn-kubernetes:hosts:${t}`), t);
    // A node's parts register no component of their own: their commands are the cluster's children.
    for (const t of ["Chassis", "ManagementPort", "Zone"]) assert.ok(!types.has(`ovn-kubernetes:hosts:${t}`), t);
    const commands = created.filter((c) => c.type === "command:remote:Command");
    const names = commands.map((c) => c.name);
    for (const name of ["central-databases", "rhel1-chassis-controller", "node1-mgmt-mgmt-port", "node1-gw-bridge", "node1-gw-flows-flows"])
        assert.ok(names.includes(name), `${name} in ${names.join(" ")}`);
    for (const c of commands) {
        // Serialized secrets keep their signature on the way to the engine (state stores them encrypted).
        const sig = pulumi.runtime.specialSigKey;
        assert.equal((c.inputs.connection as Record<string, unknown>)?.[sig], pulumi.runtime.specialSecretSig, `${c.name}: connection`);
        if (c.inputs.stdin !== undefined)
            assert.equal((c.inputs.stdin as Record<string, unknown>)[sig], pulumi.runtime.specialSecretSig, `${c.name}: stdin`);
        assert.ok(!JSON.stringify(c.inputs.create ?? "").includes("SECRET"), `${c.name}: a secret in create`);
    }
});

test("bad models fail at construction, before any command exists", () => {
    assert.throws(
        () =>
            new hosts.ManagementPort("bad", { network: nodeNetworkModel({ mgmtInterface: "k8s-$(id)" }), connection }, { parent: cluster }),
        /mgmtInterface/,
    );
    assert.throws(
        () =>
            new hosts.GatewayHost("bad", { gateway: gatewayModel("shared", { interface: "eth0;id" }), connection, datapathType: "netdev" }),
        /interface/,
    );
});

test("a part's resources are the cluster's children, wait for what the part waits for, and alias the component they sat in", async () => {
    const { Part } = await import("../../components/hosts/part");
    const before = new pulumi.ComponentResource("test:index:Before", "before");
    const part = new Part("ovn-kubernetes:hosts:Chassis", "ovn-node1-chassis", { parent: cluster, dependsOn: [before] });
    const opts = part.child();
    assert.equal(opts.parent, cluster);
    assert.deepEqual(opts.dependsOn, [before]);
    // One that waits for another of the part waits for the part's dependencies through it.
    assert.deepEqual(part.child({ dependsOn: [cluster] }).dependsOn, [cluster]);
    const alias = (opts.aliases as Array<{ parent: pulumi.Output<string> }>)[0];
    assert.equal(
        (await unwrap(alias.parent)).value,
        "urn:pulumi:stack::project::ovn-kubernetes:index:OvnKubernetesCluster$ovn-kubernetes:hosts:Chassis::ovn-node1-chassis",
    );
    // A part that sat inside another: its former URN is under that one's.
    const inner = new Part(
        "ovn-kubernetes:hosts:ManagementPort",
        "ovn-node1-mgmt",
        new Part("ovn-kubernetes:network:NodeNetwork", "ovn-node1", { parent: cluster }).inner(),
    );
    assert.equal(
        (await unwrap(inner.formerUrn)).value,
        "urn:pulumi:stack::project::ovn-kubernetes:index:OvnKubernetesCluster$ovn-kubernetes:network:NodeNetwork$ovn-kubernetes:hosts:ManagementPort::ovn-node1-mgmt",
    );
});
