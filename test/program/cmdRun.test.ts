// The program through the SDK's own program runner (`@pulumi/pulumi/cmd/run`), the entry
// `pulumi preview` and `pulumi up` use: the project's TypeScript settings load under its ts-node,
// config and secrets arrive as the engine passes them, and bad config stops before registration.
import assert from "node:assert/strict";
import * as path from "node:path";
import { test } from "node:test";
import { runProgram } from "../../lab/offline/runProgram";
import { ROOT } from "../../lab/harness/configs";
import { engineConfig } from "../support/engineConfig";
import { commandPrivateKey } from "../../components/ssh/commandKey";
import { dropSecrets, TEST_SECRETS } from "../../lab/harness/pulumiMocks";

const preview = (stack: string, edit?: (raw: Record<string, any>) => void) =>
    runProgram({
        projectDir: ROOT,
        project: "ovn-kubernetes",
        stack,
        dryRun: true,
        ...engineConfig(stack, edit),
        register: async () => ({}),
    });

/** Each registration as type, name and parent's name: what makes the tree, whatever the project is called. */
const tree = (r: Awaited<ReturnType<typeof preview>>) => {
    const parentName = (urn: string) => (urn.includes("::pulumi:pulumi:Stack::") ? "(stack)" : urn.split("::").pop());
    return r.monitor.registrations
        .filter((x) => x.type !== "pulumi:pulumi:Stack")
        .map((x) => `${x.type} ${x.name} < ${parentName(x.parent)}`)
        .sort();
};

test("cmd/run: the dev stack compiles with the project's TypeScript settings and registers the cluster", async () => {
    const r = await preview("dev");
    const errors = r.monitor.logs.filter((l) => l.severity === "error").map((l) => l.message);
    assert.equal(r.code, 0, `exit ${r.code}: ${errors.join("\n")}${r.stderr}`);
    const types = r.monitor.registrations.map((x) => x.type);
    assert.ok(types.includes("pulumi:pulumi:Stack"));
    assert.equal(types.filter((t) => t === "ovn-kubernetes:index:OvnKubernetesCluster").length, 1);
    assert.equal(types.filter((t) => t === "pulumi-nodejs:dynamic/ovn-nb:NodeSwitch").length, 3);
    const stackOutputs = r.monitor.outputs.get(r.monitor.rootUrn())!;
    assert.deepEqual(stackOutputs.nodeSubnets, {
        "kube-master": "192.168.1.0/24",
        "kube-minion1": "192.168.2.0/24",
        "kube-minion2": (stackOutputs.nodeSubnets as Record<string, string>)["kube-minion2"],
    });
    assert.equal(stackOutputs.nbAddress, "tcp:10.0.0.10:6641");
    // Secrets cross the wire only inside secret wrappers (which the engine encrypts in state).
    // The commands carry the key in the short form pulumi-command reads (ssh/commandKey).
    const wireKey = commandPrivateKey(TEST_SECRETS.sshPrivateKey).split("\n")[1];
    const withoutSecrets = JSON.stringify(r.monitor.registrations.map((x) => dropSecrets(x.inputs)));
    assert.ok(JSON.stringify(r.monitor.registrations).includes(wireKey), "the key should reach the engine, wrapped");
    for (const needle of [wireKey, TEST_SECRETS.sshPrivateKey.split("\n")[1]])
        assert.ok(!withoutSecrets.includes(needle), "private key outside a secret wrapper");
});

test("cmd/run: invalid config stops the program with the path, before any resource", async () => {
    const r = await preview("dev", (raw) => (raw.nodes[1].subnet = "10.1.0.0/24"));
    assert.equal(r.code, 32, r.stderr);
    const messages = r.monitor.logs.map((l) => l.message).join("\n");
    assert.match(messages, /nodes\[1\]\.subnet: 10\.1\.0\.0\/24 is not inside clusterSubnet/);
    assert.deepEqual(
        r.monitor.registrations.map((x) => x.type),
        ["pulumi:pulumi:Stack"],
    );
});

test("cmd/run: the examples/ program, which imports the package, registers the same tree as index.ts", async () => {
    const project = "ovn-cluster-example";
    const example = await runProgram({
        projectDir: path.join(ROOT, "examples", "minimal"),
        project,
        stack: "dev",
        dryRun: true,
        config: { [`${project}:sshPrivateKey`]: TEST_SECRETS.sshPrivateKey },
        secretKeys: [`${project}:sshPrivateKey`],
        register: async () => ({}),
    });
    const errors = example.monitor.logs.filter((l) => l.severity === "error").map((l) => l.message);
    assert.equal(example.code, 0, `exit ${example.code}: ${errors.join("\n")}${example.stderr}`);
    const own = await preview("dev");
    assert.equal(own.code, 0, own.stderr);
    assert.ok(tree(own).length > 20);
    assert.deepEqual(tree(example), tree(own));
    // The same provider stubs: both programs' resources run the one installed package.
    const stubs = (r: typeof own) => new Set(r.monitor.registrations.filter((x) => x.inputs.__provider).map((x) => x.inputs.__provider));
    assert.deepEqual(stubs(example), stubs(own));
});
