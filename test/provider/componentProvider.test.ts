// The package as a Pulumi component provider, started as the engine starts it (the SDK's plugin
// runner over gRPC): its schema describes every argument, Construct builds from plain inputs what
// the TypeScript program builds, a bad input fails with validate's errors, and the YAML and Python
// examples use only what the schema declares.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { parse, stringify } from "yaml";
import { stackConfigSchema } from "../../components/config/schema";
import { SECRET_KEYS } from "../../components/config/types";
import { SECRET_SIG, SIG_KEY } from "../../lab/offline/sdk";
import { runProgram } from "../../lab/offline/runProgram";
import { ROOT, stackConfig } from "../../lab/harness/configs";
import { engineConfig } from "../support/engineConfig";
import { commandPrivateKey } from "../../components/ssh/commandKey";
import { dropSecrets, TEST_SECRETS, withLabCrdMirror } from "../../lab/harness/pulumiMocks";
import { COMPONENT_TYPE, PROVIDER_NAME, startComponentHost, type ComponentHost } from "./support/componentHost";
import { allProperties, refType, undeclared, type PackageSchema } from "./support/schemaPaths";
import { camelCase, pythonCalls } from "./support/pythonCalls";

const AT = { project: "ovn-kubernetes", stack: "dev" };
const secret = (value: string) => ({ [SIG_KEY]: SECRET_SIG, value });

let host: ComponentHost;
let schema: PackageSchema;
before(async () => {
    host = await startComponentHost();
    schema = await host.schema();
});
after(() => host.stop());

/** A stack's settings as a program in another language passes them: plain values, the secrets as secrets. */
function plainInputs(raw: Record<string, any>): Record<string, unknown> {
    const isSecret = (k: string) => (SECRET_KEYS as readonly string[]).includes(k);
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, isSecret(k) ? secret(TEST_SECRETS[k]) : v]));
}

const countByType = (types: string[]) => types.reduce<Record<string, number>>((acc, t) => ((acc[t] = (acc[t] ?? 0) + 1), acc), {});

test("GetSchema: every argument, output and nested property has a type and a description; the arguments are the stack config's keys", () => {
    const component = schema.resources[COMPONENT_TYPE];
    assert.ok(component, `no ${COMPONENT_TYPE} in ${Object.keys(schema.resources)}`);
    const props = allProperties(schema);
    assert.ok(props.length > 60, `${props.length} properties`);
    for (const { path: at, property } of props) {
        assert.ok(property.type || property.$ref, `${at}: no type`);
        assert.ok(property.description?.trim(), `${at}: no description`);
        if (property.$ref?.startsWith("#/types/"))
            assert.ok(refType(schema, property.$ref), `${at}: ${property.$ref} is not in the schema`);
    }
    assert.deepEqual(
        Object.keys(component.inputProperties).sort(),
        [...Object.keys(stackConfigSchema.properties), "owner", "sshPrivateKeyConfig"].sort(),
    );
    // Settings are plain values: validated as a whole before anything is registered. Secrets are inputs.
    for (const [k, p] of Object.entries(component.inputProperties))
        assert.equal((p as { plain?: boolean }).plain === true, !(SECRET_KEYS as readonly string[]).includes(k), k);
    // Enumerations are the validation's enums.
    const values = (token: string) => refType(schema, `#/types/${PROVIDER_NAME}:index:${token}`)?.enum?.map((e) => e.value);
    assert.deepEqual(values("Role"), stackConfigSchema.properties.nodes.items.properties.roles.items.enum);
    assert.deepEqual(values("GatewayMode"), stackConfigSchema.properties.nodes.items.properties.gateway.properties.mode.enum);
    assert.deepEqual(values("OvnkubeVersion"), stackConfigSchema.properties.ovnkube.properties.version.enum);
    assert.deepEqual(values("OvnkubeArchitecture"), stackConfigSchema.properties.ovnkube.properties.architecture.enum);
});

/** Stacks of both modes: Pulumi mode (dev) and ovnkube mode with its release and architecture (staging, prod). */
const STACKS = [
    { stack: "dev", writer: "pulumi" },
    { stack: "staging", writer: "ovnkube" },
    { stack: "prod", writer: "ovnkube" },
] as const;

for (const { stack, writer } of STACKS)
    test(`Construct: the ${stack} stack's settings as plain inputs register the TypeScript program's children, counted by type, and the same outputs`, async () => {
        // The release's CRDs come from the lab's copies (ovnkube mode reads them), for both sides alike.
        const raw = withLabCrdMirror(stackConfig(stack));
        const at = { project: "ovn-kubernetes", stack };
        const program = await runProgram({
            projectDir: ROOT,
            ...at,
            dryRun: true,
            ...engineConfig(stack, (r) => Object.assign(r, withLabCrdMirror(r))),
            register: async () => ({}),
        });
        assert.equal(program.code, 0, program.stderr);
        const built = await host.construct("ovn", plainInputs(raw), at);
        assert.equal(built.error, undefined, `${built.error}\n${host.stderr()}`);

        const children = (types: string[]) =>
            countByType(types.filter((t) => t !== "pulumi:pulumi:Stack" && !t.endsWith(":index:OvnKubernetesCluster")));
        const fromProgram = children(program.monitor.registrations.map((r) => r.type));
        assert.ok(Object.values(fromProgram).reduce((a, b) => a + b) > 20);
        assert.deepEqual(children(built.monitor.registrations.map((r) => r.type)), fromProgram);
        // The same names under the same component name: the same stack whichever language declares it.
        const names = (m: typeof built.monitor) =>
            m.registrations
                .filter((r) => r.parent)
                .map((r) => r.name)
                .sort();
        assert.deepEqual(names(built.monitor), names(program.monitor));

        const exported = program.monitor.outputs.get(program.monitor.rootUrn())!;
        assert.equal(built.state!.topologyWriter, writer);
        for (const key of ["nodeSubnets", "nbAddress", "sbAddress", "kubernetesServer"])
            assert.deepEqual(built.state![key], exported[key], key);
        // Secrets reach the engine only inside secret wrappers.
        // The commands carry the SSH key in the short form pulumi-command reads (ssh/commandKey).
        const wireKey = commandPrivateKey(TEST_SECRETS.sshPrivateKey).split("\n")[1];
        assert.ok(JSON.stringify(built.monitor.registrations).includes(wireKey), "the key should reach the engine, wrapped");
        for (const key of SECRET_KEYS.filter((k) => raw[k] !== undefined)) {
            const needles = [
                TEST_SECRETS[key].split("\n").find((l) => l.length > 20 && !l.startsWith("-----"))!,
                ...(key === "sshPrivateKey" ? [wireKey] : []),
            ];
            for (const needle of needles) {
                assert.ok(
                    !JSON.stringify(built.monitor.registrations.map((r) => dropSecrets(r.inputs))).includes(needle),
                    `${key} outside a secret wrapper`,
                );
                assert.ok(!JSON.stringify(built.state).includes(needle), `${key} in the component's outputs`);
            }
        }
    });

/** What `npm run validate -- <file> --json` reports for a stack file holding `raw`. */
function validateReport(raw: Record<string, unknown>): { path: string; message: string }[] {
    const dir = mkdtempSync(path.join(tmpdir(), "provider-validate-"));
    try {
        const file = path.join(dir, "Pulumi.bad.yaml");
        writeFileSync(file, stringify({ config: Object.fromEntries(Object.entries(raw).map(([k, v]) => [`ovn-kubernetes:${k}`, v])) }));
        const run = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "cli", "validate.ts"), file, "--json"], {
            cwd: ROOT,
            encoding: "utf8",
        });
        assert.equal(run.status, 1, run.stderr);
        return JSON.parse(run.stdout).problems;
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

const BAD: { what: string; edit: (raw: Record<string, any>) => void; paths: string[] }[] = [
    { what: "a node subnet outside the cluster subnet", edit: (raw) => (raw.nodes[1].subnet = "10.1.0.0/24"), paths: ["nodes[1].subnet"] },
    {
        what: "a misspelled setting and a bad enumeration",
        edit: (raw) => ((raw.mut = 9000), (raw.nodes[2].gateway.mode = "bridged")),
        paths: ["mut", "nodes[2].gateway.mode"],
    },
];

for (const bad of BAD)
    test(`Construct: ${bad.what} fails with the lines \`npm run validate\` prints, and nothing is registered`, async () => {
        const raw = stackConfig("dev");
        bad.edit(raw);
        const problems = validateReport(raw);
        assert.deepEqual(problems.map((p) => p.path).sort(), bad.paths);
        const built = await host.construct("ovn", plainInputs(raw), AT);
        assert.ok(built.error, "construct should fail");
        for (const p of problems)
            assert.ok(built.error.includes(`  ${p.path}: ${p.message}`), `${p.path}: ${p.message} not in:\n${built.error}`);
        assert.deepEqual(built.monitor.registrations, []);
        assert.ok(!built.error.includes(TEST_SECRETS.sshPrivateKey.split("\n")[1]));
    });

test("examples: the YAML program uses only declared properties and its cluster constructs; the Python program's every call and enum member is in the schema", async () => {
    const yamlProgram = parse(readFileSync(path.join(ROOT, "examples", "yaml", "Pulumi.yaml"), "utf8"));
    const [resource] = Object.values(yamlProgram.resources) as { type: string; properties: Record<string, unknown> }[];
    assert.equal(resource.type, COMPONENT_TYPE);
    const component = schema.resources[COMPONENT_TYPE];
    assert.deepEqual(undeclared(schema, component.inputProperties, resource.properties), []);
    for (const out of Object.values(yamlProgram.outputs) as string[])
        assert.ok(component.properties[out.replace(/^\$\{ovn\.(\w+)\}$/, "$1")], out);
    // `${sshPrivateKey}` is the program's secret config: the engine hands the provider a secret.
    assert.equal(resource.properties.sshPrivateKey, "${sshPrivateKey}");
    const built = await host.construct(
        "ovn",
        { ...resource.properties, sshPrivateKey: secret(TEST_SECRETS.sshPrivateKey) },
        { project: "ovn-cluster-yaml", stack: "dev" },
    );
    assert.equal(built.error, undefined, built.error);
    assert.ok(built.monitor.registrations.length > 20);

    const python = pythonCalls(path.join(ROOT, "examples", "python", "__main__.py"));
    const ours = python.calls.filter((c) => c.name.startsWith("ovn."));
    assert.ok(ours.length >= 6, JSON.stringify(ours));
    for (const call of ours) {
        const name = call.name.slice("ovn.".length);
        const props =
            name === "OvnKubernetesCluster"
                ? component.inputProperties
                : refType(schema, `#/types/${PROVIDER_NAME}:index:${name.replace(/Args$/, "")}`)?.properties;
        assert.ok(props, `${call.name} is not in the schema`);
        for (const k of call.keywords) assert.ok(props[camelCase(k)], `${call.name}(${k}=…): no ${camelCase(k)}`);
    }
    for (const attr of python.attributes.filter((a) => /^ovn\.\w+\.\w+$/.test(a))) {
        const [, type, member] = attr.split(".");
        const members = refType(schema, `#/types/${PROVIDER_NAME}:index:${type}`)?.enum?.map((e) => e.name.toUpperCase());
        assert.ok(members?.includes(member), `${attr}: not an enum member (${members})`);
    }
});
