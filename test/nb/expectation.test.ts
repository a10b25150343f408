// NorthboundExpectation through the SDK's dynamic-provider host over gRPC, as the engine drives
// it, against a real NB ovsdb-server over a real sshd. ovn-nbctl stands in for ovnkube: it writes
// the rows, the expectation only reads them. Proven: create succeeds when NB holds the plan and
// records what it observed; a cell changed by hand shows in refresh and diff; an expectation that
// never comes true fails after its settle time naming each difference; a row written after create
// started is waited for; nothing is ever written to NB, delete included.
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { NO_KEY, NO_ROW } from "../../components/nb/expectation";
import { resolveDiff } from "../../lab/offline/engineDiff";
import { isSecretValue } from "../../lab/offline/sdk";
import { CheckFailed, refresh, track, up, type Tracked } from "../../lab/harness/engine";
import { startEnv, type NbEnv } from "../../lab/harness/env";
import { startProviderHost, type ProviderHost } from "../../lab/harness/providerHost";
import type { Registered } from "../../lab/harness/serializedProviders";
import { listTable } from "./support/topology";

const SYSTEM_ID = "5c1e1b4f-0d3c-4c5e-9b7e-3d2f1a0b9c8d";
const TABLES = ["Logical_Switch", "Logical_Switch_Port", "Logical_Router", "Logical_Router_Port", "Logical_Router_Static_Route", "NAT"];

/** What the plan expects ovnkube to realise for node2 and its gateway. */
const NODE2 = {
    "Logical_Switch node2": { "other_config:subnet": "10.128.5.0/24" },
    "Logical_Router GR_node2": { "options:chassis": SYSTEM_ID, "options:lb_force_snat_ip": "router_ip" },
    "Logical_Router_Port rtoj-GR_node2": { mac: "0a:58:64:40:00:02", networks: ["100.64.0.2/16"] },
    "NAT GR_node2 snat 10.128.0.0/14": { external_ip: "172.18.0.3", logical_port: [] },
    "Logical_Router_Static_Route GR_node2 10.128.0.0/14 100.64.0.1": { output_port: [], "external_ids:ic-learned-route": NO_KEY },
};
const EXPECTATIONS: Record<
    string,
    { subject: string; rows: Record<string, Record<string, string | string[]>>; settle?: Record<string, number> }
> = {
    // One look, no waiting: create succeeds only if NB already holds the plan.
    node2: { subject: "node/node2", rows: NODE2, settle: { timeoutSeconds: 0, intervalSeconds: 1 } },
    never: {
        subject: "gateway/node2",
        rows: { "Logical_Router GR_node2": { "options:chassis": "chassis-that-never-comes" } },
        settle: { timeoutSeconds: 1.5, intervalSeconds: 0.25 },
    },
    late: {
        subject: "node/node3",
        rows: { "Logical_Switch node3": { "other_config:subnet": "10.128.6.0/24" } },
        settle: { timeoutSeconds: 20, intervalSeconds: 0.2 },
    },
};

/** The expectations as the engine gets them: constructed under the SDK's mocks, `__provider` serialized. */
async function registerExpectations(nb: ReturnType<NbEnv["connection"]>): Promise<Registered[]> {
    const registered: Registered[] = [];
    await pulumi.runtime.setMocks(
        {
            newResource: (args: pulumi.runtime.MockResourceArgs) => (
                registered.push({ type: args.type, name: args.name, inputs: args.inputs }),
                { id: `${args.name}-id`, state: args.inputs }
            ),
            call: (args: pulumi.runtime.MockCallArgs) => args.inputs,
        },
        "ovn-kubernetes",
        "nbtest",
        false,
    );
    const { NorthboundExpectation } = await import("../../components/nb/expectation");
    const resources = Object.entries(EXPECTATIONS).map(([name, e]) => new NorthboundExpectation(name, { nb: pulumi.secret(nb), ...e }));
    await new Promise<void>((resolve) => pulumi.all(resources.map((r) => r.urn)).apply(() => resolve()));
    return registered;
}

/** Every row of the tables an expectation reads, and the size of NB's append-only database file. */
async function nbState(env: NbEnv) {
    const tables = Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await listTable(env.nb, t)] as const)));
    return { tables, fileBytes: statSync(env.nb.dbFile).size };
}

describe("NorthboundExpectation via the dynamic-provider host against a real NB over SSH", () => {
    let env: NbEnv;
    let host: ProviderHost;
    let registered: Registered[];
    const r: Record<string, Tracked> = {};

    before(async () => {
        env = await startEnv();
        // The foreign writer: the rows ovnkube would realise for node2 (MAC in upper case, as an
        // operator might type it), and node3's gateway with the same SNAT, which node2's must not match.
        await env.nb.nbctl(
            "ls-add",
            "node2",
            "--",
            "set",
            "Logical_Switch",
            "node2",
            "other_config:subnet=10.128.5.0/24",
            "other_config:mcast_snoop=true",
        );
        await env.nb.nbctl(
            "lr-add",
            "GR_node2",
            "--",
            "set",
            "Logical_Router",
            "GR_node2",
            `options:chassis=${SYSTEM_ID}`,
            "options:lb_force_snat_ip=router_ip",
        );
        await env.nb.nbctl("lrp-add", "GR_node2", "rtoj-GR_node2", "0A:58:64:40:00:02", "100.64.0.2/16");
        await env.nb.nbctl("lr-nat-add", "GR_node2", "snat", "172.18.0.3", "10.128.0.0/14");
        await env.nb.nbctl("lr-route-add", "GR_node2", "10.128.0.0/14", "100.64.0.1");
        await env.nb.nbctl("lr-add", "GR_node3", "--", "lr-nat-add", "GR_node3", "snat", "172.18.0.4", "10.128.0.0/14");
        registered = await registerExpectations(env.connection());
        for (const reg of registered) r[reg.name] = track(reg);
        host = await startProviderHost();
    });
    after(async () => {
        await host?.stop();
        await env?.cleanup();
    });

    it("registers dynamic resources of type ovn-nb:NorthboundExpectation whose NB connection is a secret", () => {
        assert.deepEqual(
            registered.map((x) => x.type),
            Array(3).fill("pulumi-nodejs:dynamic/ovn-nb:NorthboundExpectation"),
        );
        const keyLine = env.sshd.privateKey.split("\n")[1];
        for (const x of registered) {
            assert.ok(isSecretValue(x.inputs.nb), `${x.name}: nb must be a secret`);
            assert.ok(!x.inputs.__provider.includes(keyLine));
        }
    });

    it("check names the property path of a bad row key and of a bad column", async () => {
        const t = r.node2;
        const rows = { ...NODE2, "NAT GR_node2 10.128.0.0/14": { type: "snat" }, "Logical_Switch node2": { subnet: "10.128.5.0/24" } };
        const { failures } = await host.check(t.urn, {}, { ...t.registered, rows });
        assert.deepEqual(
            failures.map((f) => f.property),
            ['rows["Logical_Switch node2"]["subnet"]', 'rows["NAT GR_node2 10.128.0.0/14"]'],
        );
    });

    it("create: NB holds the plan, so it succeeds on its one look with the observed rows equal to the expectation, writing nothing", async () => {
        const before_ = await nbState(env);
        assert.equal((await up(host, r.node2)).action, "create");
        assert.equal(r.node2.id, "node/node2");
        assert.deepEqual(r.node2.outputs!.rows, r.node2.checked!.rows);
        assert.deepEqual(r.node2.outputs!.rows["Logical_Router_Port rtoj-GR_node2"], {
            mac: "0a:58:64:40:00:02",
            networks: "100.64.0.2/16",
        });
        assert.deepEqual(await nbState(env), before_);
    });

    it("diff of unchanged inputs against the observed rows reports no changes", async () => {
        assert.equal((await up(host, r.node2)).action, "same");
    });

    it("a cell changed by hand: refresh reports the observed value under its row key, diff says changes", async () => {
        await env.nb.nbctl("set", "Logical_Switch", "node2", "other_config:subnet=10.128.7.0/24");
        await env.nb.nbctl("lr-nat-del", "GR_node2", "snat", "10.128.0.0/14");
        const read = await host.read(r.node2.urn, r.node2.id!, r.node2.outputs!, r.node2.checked!);
        assert.equal(read.id, "node/node2");
        assert.deepEqual(read.properties.rows["Logical_Switch node2"], { "other_config:subnet": "10.128.7.0/24" });
        assert.deepEqual(read.properties.rows["NAT GR_node2 snat 10.128.0.0/14"], { external_ip: NO_ROW, logical_port: NO_ROW });
        assert.deepEqual(read.properties.rows["Logical_Router GR_node2"], NODE2["Logical_Router GR_node2"]);
        // The inputs come back observed too: the next preview shows observed => planned per cell.
        assert.deepEqual(read.inputs!.rows, read.properties.rows);
        await refresh(host, r.node2);
        // Left to the engine (DIFF_UNKNOWN), whose diff of the recorded observed inputs against the plan names each cell.
        const checked = await host.check(r.node2.urn, r.node2.checked!, r.node2.registered);
        const reply = await host.diff(r.node2.urn, r.node2.id!, r.node2.outputs!, checked.inputs, r.node2.checked!);
        assert.equal(reply.changes, 0);
        assert.deepEqual(resolveDiff(reply, r.node2.checked!, checked.inputs).detailedDiff, {
            'rows["Logical_Switch node2"]["other_config:subnet"]': "update",
            'rows["NAT GR_node2 snat 10.128.0.0/14"].external_ip': "update",
            'rows["NAT GR_node2 snat 10.128.0.0/14"].logical_port': "update",
        });
    });

    it("once the rows are back as planned, up updates the expectation and records the plan again", async () => {
        await env.nb.nbctl(
            "set",
            "Logical_Switch",
            "node2",
            "other_config:subnet=10.128.5.0/24",
            "--",
            "lr-nat-add",
            "GR_node2",
            "snat",
            "172.18.0.3",
            "10.128.0.0/14",
        );
        assert.equal((await up(host, r.node2)).action, "update");
        assert.deepEqual(r.node2.outputs!.rows, r.node2.checked!.rows);
    });

    it("an expectation that never comes true fails after its settle time, naming row, column, expected and observed values", async (c) => {
        const before_ = await nbState(env);
        const started = Date.now();
        await assert.rejects(up(host, r.never), (err: Error) => {
            c.diagnostic(err.message);
            const elapsed = Date.now() - started;
            assert.ok(elapsed >= 1500 && elapsed < 10000, `failed after ${elapsed} ms`);
            assert.match(
                err.message,
                /NorthboundExpectation gateway\/node2: after 1\.\d s the Northbound database still differs from the plan in 1 place:/,
            );
            assert.match(
                err.message,
                new RegExp(`Logical_Router GR_node2 options:chassis: expected "chassis-that-never-comes", observed "${SYSTEM_ID}"`),
            );
            assert.match(err.message, /ovnkube owns these rows/);
            assert.ok(!err.message.includes(env.sshd.privateKey.split("\n")[1]));
            return true;
        });
        assert.equal(r.never.id, undefined);
        assert.deepEqual(await nbState(env), before_);
    });

    it("a row written 1 s after create started is waited for, and create succeeds", async () => {
        const started = Date.now();
        const creating = up(host, r.late);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await env.nb.nbctl("ls-add", "node3", "--", "set", "Logical_Switch", "node3", "other_config:subnet=10.128.6.0/24");
        assert.equal((await creating).action, "create");
        const elapsed = Date.now() - started;
        assert.ok(elapsed >= 1000 && elapsed < 15000, `created after ${elapsed} ms`);
        assert.deepEqual(r.late.outputs!.rows, { "Logical_Switch node3": { "other_config:subnet": "10.128.6.0/24" } });
    });

    it("delete leaves NB untouched: every row stays, nothing is written", async () => {
        const before_ = await nbState(env);
        assert.ok(before_.tables.NAT.length === 2 && before_.tables.Logical_Switch.length === 2);
        for (const t of [r.node2, r.late]) await host.delete(t.urn, t.id!, t.outputs!, t.checked!);
        assert.deepEqual(await nbState(env), before_);
    });

    it("an unreachable NB fails the read naming the expectation and the database, never the key", async (c) => {
        const t = r.node2;
        const gone = { ...t.outputs!, nb: { ...t.outputs!.nb, socket: `${env.nb.dir}/no-such.sock` } };
        await assert.rejects(host.read(t.urn, t.id!, gone, t.checked!), (err: Error) => {
            c.diagnostic(err.message);
            assert.match(err.message, /NorthboundExpectation node\/node2: /);
            assert.match(err.message, /no-such\.sock/);
            assert.ok(!err.message.includes(env.sshd.privateKey.split("\n")[1]));
            return true;
        });
    });

    it("a bad row key never reaches the host", async () => {
        await assert.rejects(
            up(
                host,
                { ...r.late, id: undefined, checked: undefined },
                { ...r.late.registered, rows: { "Logical_Switch node 3": { name: "x" } } },
            ),
            CheckFailed,
        );
    });

    it("the host never printed the private key", () => {
        assert.ok(!host.stderr().includes(env.sshd.privateKey.split("\n")[1]));
    });
});
