// The pack as the engine talks to it: policy/index.ts started as a process (the policy SDK's
// analyzer server prints its port), then the Analyzer gRPC calls the engine makes: GetAnalyzerInfo,
// Configure (the pack's configuration with an enforcement level), ConfigureStack (the stack's
// tags), Analyze per resource and AnalyzeStack. The engine starts the pack through the SDK's
// cmd/run-policy-pack, which type-checks with ts-node (tens of seconds); tsx loads the same file.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { after, before, test } from "node:test";
import { CHANGE_GUARD_TYPE } from "../../components/guard/changeGuard";
import { SCRIPT_BUNDLE_TYPE } from "../../components/hosts/scriptBundle";
import { POLICIES } from "../../policy/rules";
import { ROOT } from "../../lab/harness/configs";

const sdk = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const grpc = sdk("@grpc/grpc-js");
const { Struct } = sdk("google-protobuf/google/protobuf/struct_pb");
const { Empty } = sdk("google-protobuf/google/protobuf/empty_pb");
const pb = require("@pulumi/pulumi/proto/analyzer_pb");
const { AnalyzerClient } = require("@pulumi/pulumi/proto/analyzer_grpc_pb");

let pack: ChildProcess;
let client: any;
const call = (method: string, request: unknown): Promise<any> =>
    new Promise((resolve, reject) => client[method](request, (err: Error | null, res: any) => (err ? reject(err) : resolve(res))));
const urn = (stack: string, type: string, name: string) => `urn:pulumi:${stack}::ovn-kubernetes::${type}::${name}`;

before(async () => {
    pack = spawn(process.execPath, ["--import", "tsx", "policy/index.ts"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    const port = await new Promise<string>((resolve, reject) => {
        pack.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim()));
        pack.once("exit", (code) => reject(new Error(`the policy pack exited with ${code} before serving`)));
    });
    client = new AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
});
after(() => {
    client?.close();
    pack?.kill();
});

async function configure(config: Record<string, { level: number; properties: object }>, tags: Record<string, string> = {}) {
    const request = new pb.ConfigureAnalyzerRequest();
    for (const [name, c] of Object.entries(config))
        request
            .getPolicyconfigMap()
            .set(name, new pb.PolicyConfig().setEnforcementlevel(c.level).setProperties(Struct.fromJavaScript(c.properties)));
    await call("configure", request);
    const stack = new pb.AnalyzerStackConfigureRequest().setStack("prod").setProject("ovn-kubernetes");
    for (const [k, v] of Object.entries(tags)) stack.getTagsMap().set(k, v);
    await call("configureStack", stack);
}

const diagnostics = (res: any) =>
    res.getDiagnosticsList().map((d: any) => ({ policy: d.getPolicyname(), level: d.getEnforcementlevel(), message: d.getMessage() }));

/** Options as the engine sends them for a resource that sets none. */
const noOptions = () => new pb.AnalyzerResourceOptions();

function analyze(stack: string, type: string, name: string, properties: object) {
    const request = new pb.AnalyzeRequest()
        .setType(type)
        .setName(name)
        .setUrn(urn(stack, type, name))
        .setProperties(Struct.fromJavaScript(properties))
        .setOptions(noOptions());
    return call("analyze", request);
}

test("GetAnalyzerInfo lists every rule, mandatory, with its configuration schema", async () => {
    const info = await call("getAnalyzerInfo", new Empty());
    assert.equal(info.getName(), "ovn-kubernetes-network");
    const policies = info.getPoliciesList();
    assert.deepEqual(
        policies.map((p: any) => p.getName()),
        POLICIES.map((p) => p.name),
    );
    assert.ok(policies.every((p: any) => p.getEnforcementlevel() === pb.EnforcementLevel.MANDATORY));
    const mtu = policies.find((p: any) => p.getName() === "mtu-fits-tunnel");
    assert.equal(mtu.getConfigschema().getProperties().toJavaScript().underlayMtu.default, 1500);
});

test("Analyze: the configured underlay MTU and enforcement level reach the rule; an unverified host key is mandatory", async () => {
    await configure({ "mtu-fits-tunnel": { level: pb.EnforcementLevel.ADVISORY, properties: { underlayMtu: 1450 } } });
    const mtu = diagnostics(
        await analyze("dev", SCRIPT_BUNDLE_TYPE, "ovn-worker-0-scripts", {
            tunnel: { node: "worker-0", mtu: 1400, encapType: "geneve", tunnelIp: "10.0.0.11" },
        }),
    );
    assert.deepEqual(mtu, [{ policy: "mtu-fits-tunnel", level: pb.EnforcementLevel.ADVISORY, message: mtu[0].message }]);
    assert.match(mtu[0].message, /node worker-0: mtu 1400 \+ 58 bytes of geneve = 1458 exceeds the underlay MTU 1450/);
    const ssh = { host: "10.0.0.11", port: 22, user: "root", insecureIgnoreHostKey: true };
    const keys = diagnostics(await analyze("dev", SCRIPT_BUNDLE_TYPE, "ovn-worker-0-scripts", { ssh }));
    assert.deepEqual(
        keys.map((d: any) => [d.policy, d.level]),
        [["host-keys-verified", pb.EnforcementLevel.MANDATORY]],
    );
    assert.deepEqual(
        diagnostics(await analyze("dev", SCRIPT_BUNDLE_TYPE, "ovn-worker-0-scripts", { ssh: { ...ssh, insecureIgnoreHostKey: false } })),
        [],
    );
});

test("Analyze: plain TCP in a stack tagged production fails, in an untagged staging stack passes", async () => {
    const chassis = { create: "#!/usr/bin/env bash\novn_remote='tcp:10.0.0.10:6642'\n" };
    await configure({});
    assert.deepEqual(diagnostics(await analyze("staging", "command:remote:Command", "ovn-worker-0-chassis-controller", chassis)), []);
    await configure({}, { environment: "production" });
    const tagged = diagnostics(await analyze("staging", "command:remote:Command", "ovn-worker-0-chassis-controller", chassis));
    assert.deepEqual(
        tagged.map((d: any) => d.policy),
        ["ovsdb-over-ssl"],
    );
    assert.match(tagged[0].message, /create uses tcp:10\.0\.0\.10:6642/);
});

test("AnalyzeStack: a role changed on the ChangeGuard's record fails against the running roles, not once drained", async () => {
    const guard = new pb.AnalyzerResource()
        .setType(CHANGE_GUARD_TYPE)
        .setName("ovn-change-guard")
        .setUrn(urn("prod", CHANGE_GUARD_TYPE, "ovn-change-guard"))
        .setProperties(Struct.fromJavaScript({ hosts: [{ name: "worker-2", ssh: { host: "10.10.0.22" }, roles: ["master"] }] }))
        .setOptions(noOptions());
    const stack = new pb.AnalyzeStackRequest().setResourcesList([guard]);
    await configure({
        "role-change-needs-drain": { level: pb.EnforcementLevel.MANDATORY, properties: { running: { "worker-2": ["node"] } } },
    });
    const found = diagnostics(await call("analyzeStack", stack));
    assert.deepEqual(
        found.map((d: any) => d.policy),
        ["role-change-needs-drain"],
    );
    assert.match(found[0].message, /node worker-2: roles \[node\] → \[master\]/);
    await configure({
        "role-change-needs-drain": {
            level: pb.EnforcementLevel.MANDATORY,
            properties: { running: { "worker-2": ["node"] }, drained: ["worker-2"] },
        },
    });
    assert.deepEqual(diagnostics(await call("analyzeStack", stack)), []);
});
