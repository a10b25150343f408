// Property-based checks of validation (fast-check): random configs of the schema's shape and
// mutations of the example stacks go through validate, render and the program's component under
// Pulumi mocks. Properties: nothing throws but ConfigError, every problem names a config path,
// what validate accepts renders and registers, and the plan's ranges never overlap.
import assert from "node:assert/strict";
import fc from "fast-check";
import * as pulumi from "@pulumi/pulumi";
import { OvnKubernetesCluster } from "../../components/cluster";
import type { SecretTexts } from "../../components/plan/checks/keyMaterial";
import { stackConfigSchema } from "../../components/config/schema";
import { SECRET_KEYS, type ClusterSettings, type SecretKey, type StackConfig } from "../../components/config/types";
import { SECRET_PRESENT } from "../../components/program/readConfig";
import { ConfigError, validateConfig } from "../../components/plan/validate";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import { buildClusterModel } from "../../components/model/clusterModel";
import { nbctlShow } from "../../components/render/nbctlShow";
import { desiredNorthbound } from "../../components/render/northbound";
import { contains, overlaps, parseNetwork, type Cidr4 } from "../../components/values";
import { type ExampleStack, stackConfig } from "../../lab/harness/configs";
import { labCrdMirror } from "../../lab/harness/crdMirror";
import { programState, WEBHOOK_CERTIFICATE } from "../../lab/harness/pulumiMocks";
import { publicLine, sshPrivateKey, testSecretTexts } from "../../lab/harness/secretMaterial";

/** One fuzz case: the raw config and the secrets' plain values. */
export interface FuzzCase {
    raw: Record<string, any>;
    texts: SecretTexts;
}

const EXAMPLES: ExampleStack[] = ["dev", "prod", "staging"];
const examples = Object.fromEntries(EXAMPLES.map((s) => [s, stackConfig(s)])) as Record<ExampleStack, Record<string, any>>;

/** Every leaf of a value with its path, as arrays of keys. */
function leaves(v: unknown, at: Array<string | number> = []): Array<{ path: Array<string | number>; value: unknown }> {
    if (Array.isArray(v)) return [{ path: at, value: v }, ...v.flatMap((x, i) => leaves(x, [...at, i]))];
    if (v && typeof v === "object") return [{ path: at, value: v }, ...Object.entries(v).flatMap(([k, x]) => leaves(x, [...at, k]))];
    return [{ path: at, value: v }];
}

/** Values operators write: every value of the example stacks, and ones near the edges of what is valid. */
const VALUES: unknown[] = [
    ...new Map(
        EXAMPLES.flatMap((s) =>
            leaves(examples[s])
                .filter((l) => l.path.length > 0)
                .map((l) => [JSON.stringify(l.value), l.value]),
        ),
    ).values(),
    "",
    "0.0.0.0",
    "127.0.0.1",
    "255.255.255.255",
    "224.0.0.1",
    "169.254.0.1",
    "10.0.0.0",
    "10.0.0.255",
    "10.0.0.0/8",
    "10.0.0.10/32",
    "10.0.0.0/31",
    "0.0.0.0/0",
    "100.64.0.0/29",
    "100.88.0.0/24",
    "169.254.0.0/30",
    "192.168.0.0/22",
    "192.168.0.0/23",
    "100.88.0.0/16",
    "169.254.0.0/17",
    "169.254.0.0/16",
    "169.254.128.0/17",
    "169.254.169.248/29",
    "169.254.169.0/29",
    "10.200.0.0/24",
    "172.30.0.0/16",
    "10.128.0.0/14",
    "10.33.74.0/24",
    "8.0.0.0/16",
    "52.0.0.0/16",
    "172.0.0.0/8",
    "http://10.0.0.10:6641",
    "https://10.0.0.10",
    "http://127.0.0.1:8080",
    "https://localhost:6443",
    "https://kubernetes.default.svc",
    "https://api.cluster.local:6443",
    "https://172.30.0.1",
    "stt",
    "vxlan",
    "netdev",
    "rhel",
    "dedicated",
    "shared",
    "br-int",
    "br_ex",
    "br.ex",
    "BrEx",
    "eth0",
    "ovn-host-network",
    "kube-system",
    "user",
    "root",
    "join",
    "GR_x",
    "global",
    "centralized",
    "interconnect",
    "bob:pw@registry.example.com/ovnkube:v1",
    "registry.example.com:5000/ovnkube",
    "ovnkube:v1.3.0",
    "https://ghcr.io/ovn/ovnkube:v1",
    "ghcr.io/OVN/ovnkube:v1",
    "ghcr.io/ovn/ovnkube:latest",
    "ghcr.io/ovn/ovnkube:master",
    "ghcr.io/ovn/ovnkube:release-1.2",
    "http://mirror.example.com/v1.3.0/crds/",
    "https://mirror.example.com/master/crds/",
    "https://mirror.example.com/v1.2.0/crds/",
    "https://mirror.example.com/v1.3.0/crds/",
    "https://u:tok@mirror.example.com/v1.3.0/crds/",
    "quay.io/ovn/ovnkube@sha256:" + "a".repeat(64),
    "SHA256:" + "A".repeat(43),
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAII71",
    0,
    1,
    22,
    443,
    6641,
    6642,
    6643,
    6644,
    9443,
    "https://10.0.0.10:9443",
    "/etc/kubernetes/admin.conf",
    "/etc/kubernetes/bootstrap-kubelet.conf",
    "/root/.kube/config",
    8,
    24,
    28,
    29,
    30,
    32,
    576,
    9000,
    65535,
    -1,
    1.5,
    true,
    false,
    null,
    [],
    {},
    ["central"],
    ["master"],
    ["node", "gateway"],
    ["central", "master", "node", "gateway"],
    { secure: "v1:x" },
    { secure: "v1:Zm9vYmFyYmF6:c2VjcmV0LXZhbHVlLWhlcmU=" },
];

type Op = (raw: Record<string, any>, texts: SecretTexts) => void;

function setAt(root: any, path: Array<string | number>, value: unknown): void {
    let o = root;
    for (const k of path.slice(0, -1)) o = o?.[k];
    if (o && typeof o === "object") o[path[path.length - 1]] = structuredClone(value);
}

function deleteAt(root: any, path: Array<string | number>): void {
    let o = root;
    for (const k of path.slice(0, -1)) o = o?.[k];
    if (Array.isArray(o)) o.splice(Number(path[path.length - 1]), 1);
    else if (o && typeof o === "object") delete o[path[path.length - 1]];
}

/** One change an operator might make; `pick` chooses among the config's own paths. */
const op: fc.Arbitrary<Op> = fc.oneof(
    fc.tuple(fc.nat(), fc.constantFrom(...VALUES)).map(([pick, value]): Op => (raw) => {
        const all = leaves(raw).filter((l) => l.path.length > 0);
        setAt(raw, all[pick % all.length].path, value);
    }),
    fc.nat().map((pick): Op => (raw) => {
        const all = leaves(raw).filter((l) => l.path.length > 0);
        deleteAt(raw, all[pick % all.length].path);
    }),
    // A field copied from one place to another (a node duplicated, an address pasted twice).
    fc.tuple(fc.nat(), fc.nat()).map(([from, to]): Op => (raw) => {
        const all = leaves(raw).filter((l) => l.path.length > 0);
        setAt(raw, all[to % all.length].path, all[from % all.length].value);
    }),
    fc.nat().map((pick): Op => (raw) => {
        if (Array.isArray(raw.nodes) && raw.nodes.length) raw.nodes.push(structuredClone(raw.nodes[pick % raw.nodes.length]));
    }),
    // A secret's value where another belongs.
    fc.tuple(fc.constantFrom(...SECRET_KEYS), fc.constantFrom(...SECRET_KEYS)).map(([from, to]): Op => (raw, texts) => {
        texts[to] = texts[from];
        raw[to] ??= { secure: "v1:x" };
    }),
    fc
        .constantFrom<[string, unknown]>(
            ["kubernetes", { enabled: true }],
            ["kubernetes", { enabled: false }],
            ["lab", true],
            ["ovnkube", { architecture: "centralized" }],
            ["ovnkube", { allowMovingImageTag: true }],
        )
        .map(
            // Objects are merged into what is there; a plain value (lab: true) replaces it.
            ([k, v]): Op =>
                (raw) =>
                    (raw[k] = typeof v === "object" ? { ...(typeof raw[k] === "object" ? raw[k] : {}), ...(v as object) } : v),
        ),
);

/** Host keys of their own for added nodes (a copied key is refused). */
const FRESH_HOST_KEYS = Array.from({ length: 12 }, () => publicLine(sshPrivateKey()));

/** The i-th node (modulo their number) when nodes is a list and that node an object. */
function nodeAt(raw: Record<string, any>, i: number): Record<string, any> | undefined {
    const nodes = raw.nodes;
    const n = Array.isArray(nodes) && nodes.length ? nodes[i % nodes.length] : undefined;
    return n && typeof n === "object" && !Array.isArray(n) ? n : undefined;
}

/** Changes an operator makes to a working stack that keep it plausible, so that many cases are accepted. */
const plausible: fc.Arbitrary<Op> = fc.oneof(
    // Nodes of their own (name, address, host key), some of them gateways on the dev stack's LAN.
    fc
        .tuple(
            fc.integer({ min: 0, max: FRESH_HOST_KEYS.length - 1 }),
            fc.integer({ min: 1, max: 6 }),
            fc.constantFrom("shared", "dedicated", undefined),
        )
        .map(([first, count, mode]): Op => (raw) => {
            if (!Array.isArray(raw.nodes)) return;
            for (let k = first; k < Math.min(first + count, FRESH_HOST_KEYS.length); k++) {
                const gateway = mode && { mode, interface: "eth1", physicalIp: `10.33.74.${100 + k}/24`, defaultGateway: "10.33.74.253" };
                raw.nodes.push({
                    name: `extra-${k}`,
                    address: `10.250.${k}.10`,
                    roles: gateway ? ["node", "gateway"] : ["node"],
                    hostKey: FRESH_HOST_KEYS[k],
                    ...(gateway ? { gateway } : {}),
                });
            }
        }),
    fc.nat().map((i): Op => (raw) => {
        if (Array.isArray(raw.nodes) && raw.nodes.length > 1) raw.nodes.splice(i % raw.nodes.length, 1);
    }),
    fc.nat().map(
        (i): Op =>
            (raw) =>
                void delete nodeAt(raw, i)?.subnet,
    ),
    fc.tuple(fc.nat(), fc.integer({ min: 1024, max: 65535 })).map(([i, port]): Op => (raw) => {
        const n = nodeAt(raw, i);
        if (n) n.port = port;
    }),
    fc.integer({ min: 16, max: 28 }).map(
        (len): Op =>
            (raw) =>
                (raw.hostSubnetLength = len),
    ),
    fc.integer({ min: 576, max: 9216 }).map(
        (mtu): Op =>
            (raw) =>
                (raw.mtu = mtu),
    ),
    fc.constantFrom<Op>(
        (raw) => (raw.lab = true),
        (raw) => (raw.allowPublicClusterRanges = true),
        (raw) => (raw.ovnkube = { ...raw.ovnkube, version: "1.2" }),
        (raw) => (raw.ovnkube = { ...raw.ovnkube, identity: { enabled: false } }),
        (raw) => (raw.kubernetes = { ...raw.kubernetes, namespace: "ovn-system" }),
        (raw) => (raw.ovnTransport = { ...raw.ovnTransport, nbPort: 16641, sbPort: 16642 }),
        (raw) => (raw.datapathType = "system"),
    ),
);

/** The example made dual stack, as its operator would: a ULA beside each IPv4 range, a v6 pin beside each pin, a v6 node IP. */
function dualStack(raw: Record<string, any>): void {
    const v4 = (v: unknown) => String(v).split(",")[0];
    raw.clusterSubnet = `${v4(raw.clusterSubnet)},fd00:10:244::/48`;
    raw.serviceSubnet = `${v4(raw.serviceSubnet)},fd00:10:96::/112`;
    for (const [k, v6] of [
        ["joinSubnet", "fd98::/64"],
        ["transitSubnet", "fd97::/64"],
        ["masqueradeSubnet", "fd69::/112"],
    ])
        if (raw[k] !== undefined) raw[k] = `${v4(raw[k])},${v6}`;
    if (!Array.isArray(raw.nodes)) return;
    raw.nodes.forEach((n: any, i: number) => {
        if (typeof n.subnet === "string") n.subnet = `${v4(n.subnet)},fd00:10:244:${(i + 1).toString(16)}::/64`;
        n.nodeIp = `${n.tunnelIp ?? n.address},fd00:10:20::${(i + 10).toString(16)}`;
    });
}

/** An example stack with up to four changes, most of them plausible. */
export const mutatedExample: fc.Arbitrary<FuzzCase> = fc
    .tuple(
        fc.constantFrom(...EXAMPLES),
        fc.array(
            fc.oneof(
                { arbitrary: plausible, weight: 3 },
                { arbitrary: op, weight: 1 },
                { arbitrary: fc.constant<Op>(dualStack), weight: 1 },
            ),
            { maxLength: 4 },
        ),
    )
    .map(([stack, ops]) => {
        const raw = structuredClone(examples[stack]);
        const texts: SecretTexts = testSecretTexts();
        for (const o of ops) o(raw, texts);
        return { raw, texts };
    });

const octet = fc.integer({ min: 0, max: 255 });
/** IPv4 addresses biased towards the ranges the examples use, so that relations meet. */
const ip = fc.oneof(
    fc
        .tuple(fc.constantFrom("10.0.0", "10.10.0", "10.33.74", "192.168.1", "172.30.0", "100.64.0", "127.0.0", "169.254.1"), octet)
        .map(([n, h]) => `${n}.${h}`),
    fc.tuple(octet, octet, octet, octet).map((o) => o.join(".")),
);
const cidr = fc.oneof(
    fc.constantFrom(
        "10.128.0.0/14",
        "192.168.0.0/16",
        "172.30.0.0/16",
        "100.64.0.0/16",
        "100.88.0.0/16",
        "169.254.0.0/17",
        "10.0.0.0/8",
        "10.33.74.0/24",
    ),
    fc.tuple(ip, fc.integer({ min: 0, max: 32 })).map(([a, p]) => `${a}/${p}`),
);
const hex = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
/** IPv6 addresses: the ULAs of dual-stack stacks, and the special ones a stack must refuse. */
const ip6 = fc.oneof(
    fc
        .tuple(fc.constantFrom("fd00:10:20", "fd00:10:244:1", "fd98", "fd97", "fd69", "fe80", "ff02", "2001:db8"), hex)
        .map(([n, h]) => `${n}::${h}`),
    fc.constantFrom("::1", "::", "fd00:ec2::254"),
);
const cidr6 = fc.oneof(
    fc.constantFrom(
        "fd00:10:244::/48",
        "fd00:10:96::/112",
        "fd98::/64",
        "fd97::/64",
        "fd69::/112",
        "fe80::/64",
        "2001:db8::/32",
        "ff05::/112",
    ),
    fc.tuple(hex, fc.integer({ min: 8, max: 128 })).map(([h, p]) => `fd00:${h}::/${p}`),
);
/** A per-family range: one CIDR of either family, or a comma list of one to three in either order. */
const perFamily = fc.oneof(
    { arbitrary: cidr, weight: 3 },
    { arbitrary: cidr6, weight: 1 },
    { arbitrary: fc.tuple(cidr, cidr6).map((l) => l.join(",")), weight: 2 },
    { arbitrary: fc.tuple(cidr6, cidr).map((l) => l.join(",")), weight: 1 },
    { arbitrary: fc.array(fc.oneof(cidr, cidr6), { minLength: 1, maxLength: 3 }).map((l) => l.join(",")), weight: 1 },
);
const HOST_KEYS = EXAMPLES.flatMap((s) => examples[s].nodes.map((n: { hostKey: string }) => n.hostKey));

const gateway = fc.record(
    {
        mode: fc.constantFrom("shared", "dedicated"),
        interface: fc.constantFrom("eth0", "eth1", "br-int", "enp0s31f6"),
        bridge: fc.constantFrom("breth0", "br_ex", "br-ex", "br-int", "eth0"),
        physicalIp: fc.tuple(ip, fc.integer({ min: 8, max: 32 })).map(([a, p]) => `${a}/${p}`),
        defaultGateway: ip,
        rampoutSubnets: fc.array(cidr, { maxLength: 2 }),
    },
    { requiredKeys: ["mode", "interface", "physicalIp", "defaultGateway"] },
);

const node = fc.record(
    {
        name: fc.constantFrom("master-0", "master-1", "worker-0", "worker-1", "worker-2", "kube-minion1", "join", "a", "n".repeat(60)),
        address: fc.oneof(ip, ip6, fc.constantFrom("node1.example.com", "localhost")),
        port: fc.constantFrom(22, 2222, 6641, 6642, 6443),
        user: fc.constantFrom("root", "admin"),
        hostKey: fc.constantFrom(...HOST_KEYS),
        roles: fc.subarray(["central", "master", "node", "gateway"], { minLength: 1 }),
        tunnelIp: fc.oneof(ip, ip6),
        nodeIp: fc.oneof(
            fc.tuple(ip, ip6).map((l) => l.join(",")),
            fc.array(fc.oneof(ip, ip6), { minLength: 1, maxLength: 3 }).map((l) => l.join(",")),
        ),
        tunnelInterface: fc.constantFrom("eth0", "eth1"),
        subnet: perFamily,
        os: fc.constantFrom("debian", "rhel"),
        datapathType: fc.constantFrom("system", "netdev"),
        gateway,
    },
    { requiredKeys: ["name", "address", "roles", "hostKey"] },
);

/** A config of the schema's shape from scratch: every field present or not, values near each other. */
export const generatedConfig: fc.Arbitrary<FuzzCase> = fc
    .record(
        {
            nodes: fc.array(node, { minLength: 1, maxLength: 5 }),
            clusterSubnet: perFamily,
            hostSubnetLength: fc.integer({ min: 8, max: 29 }),
            serviceSubnet: perFamily,
            joinSubnet: perFamily,
            transitSubnet: perFamily,
            masqueradeSubnet: perFamily,
            encapType: fc.constantFrom("geneve", "vxlan", "stt"),
            mtu: fc.integer({ min: 576, max: 9216 }),
            datapathType: fc.constantFrom("system", "netdev"),
            apiServer: fc.record({
                url: fc.oneof(
                    ip.map((a) => `https://${a}:6443`),
                    ip.map((a) => `http://${a}:8080`),
                    fc.constant("https://api.example.com"),
                ),
            }),
            ovnTransport: fc.record(
                { protocol: fc.constantFrom("tcp", "ssl"), nbPort: fc.constantFrom(6641, 22), sbPort: fc.constantFrom(6642, 6641) },
                { requiredKeys: [] },
            ),
            ssh: fc.record(
                { user: fc.constantFrom("root", "admin"), port: fc.constantFrom(22, 6641), insecureIgnoreHostKey: fc.boolean() },
                { requiredKeys: [] },
            ),
            kubernetes: fc.record(
                { enabled: fc.boolean(), namespace: fc.constantFrom("ovn-kubernetes", "ovn-host-network"), useAmbientConfig: fc.boolean() },
                { requiredKeys: [] },
            ),
            ovnkube: fc.record(
                { version: fc.constantFrom("1.2", "1.3"), architecture: fc.constantFrom("interconnect", "centralized") },
                { requiredKeys: [] },
            ),
            lab: fc.boolean(),
            secrets: fc.subarray([...SECRET_KEYS]),
        },
        { requiredKeys: ["nodes", "clusterSubnet", "serviceSubnet", "apiServer", "secrets"] },
    )
    .map(({ secrets, ...raw }) => {
        const all = testSecretTexts();
        const texts: SecretTexts = {};
        for (const k of ["sshPrivateKey", ...secrets] as const) {
            (raw as Record<string, unknown>)[k] = { secure: "v1:x" };
            texts[k] = all[k];
        }
        return { raw: raw as Record<string, any>, texts };
    });

/** Either kind of case. */
export const fuzzCase: fc.Arbitrary<FuzzCase> = fc.oneof(mutatedExample, generatedConfig);

/** A path the user wrote: a top-level setting (or the unknown key they gave), then keys and indexes. */
function assertConfigPath(path: string, raw: Record<string, any>): void {
    const root = /^[^.[]+/.exec(path)?.[0] ?? "";
    assert.ok(root in stackConfigSchema.properties || root in raw || path === "(root)", `problem at "${path}", which is no config path`);
    assert.match(path, /^[^.[\]]+(?:\[\d+\]|\.[^.[\]]+)*$/, `problem at "${path}", which is no config path`);
}

/** In every family, each pair of the plan's ranges is disjoint, and each node subnet lies in the cluster subnet. */
export function assertPlanDisjoint(config: StackConfig, model: ReturnType<typeof buildClusterModel>): void {
    config.ipFamilies.forEach((_, k) => assertFamilyDisjoint(config, model, k));
}

function assertFamilyDisjoint(config: StackConfig, model: ReturnType<typeof buildClusterModel>, k: number): void {
    const cluster = parseNetwork(config.clusterSubnets[k]);
    const own: Array<[string, Cidr4]> = [
        ["serviceSubnet", parseNetwork(config.serviceSubnets[k])],
        ["joinSubnet", parseNetwork(config.joinSubnets[k])],
        ...(model.writer === "ovnkube"
            ? ([["masqueradeSubnet", parseNetwork(config.masqueradeSubnets[k])]] as Array<[string, Cidr4]>)
            : []),
        ...(model.architecture === "interconnect" && model.writer === "ovnkube"
            ? ([["transitSubnet", parseNetwork(config.transitSubnets[k])]] as Array<[string, Cidr4]>)
            : []),
    ];
    const subnets = Object.entries(model.plan.families[k].subnets).map(([n, s]): [string, Cidr4] => [`node ${n}`, parseNetwork(s)]);
    for (const [n, s] of subnets) assert.ok(contains(cluster, s), `${n} ${s.text} is outside clusterSubnet ${cluster.text}`);
    const all: Array<[string, Cidr4]> = [["clusterSubnet", cluster], ...own, ...subnets];
    for (let i = 0; i < all.length; i++)
        for (let j = i + 1; j < all.length; j++) {
            const nested = all[i][0] === "clusterSubnet" && all[j][0].startsWith("node ");
            if (!nested)
                assert.ok(!overlaps(all[i][1], all[j][1]), `${all[i][0]} ${all[i][1].text} overlaps ${all[j][0]} ${all[j][1].text}`);
        }
    const joins = Object.values(model.plan.families[k].gatewayJoinIps);
    assert.equal(new Set(joins).size, joins.length, `two gateways share a join address: ${joins.join(", ")}`);
}

/** Validate and render one case; the validated config when it is accepted. */
export function validateAndRender(c: FuzzCase): StackConfig | undefined {
    let config: StackConfig;
    try {
        config = validateConfig(c.raw, c.texts);
    } catch (e) {
        if (!(e instanceof ConfigError)) throw new Error(`validate threw ${(e as Error)?.stack ?? e} for ${JSON.stringify(c.raw)}`);
        assert.ok(e.problems.length > 0);
        for (const p of e.problems) assertConfigPath(p.path, c.raw);
        for (const t of Object.values(c.texts))
            for (const line of t.split("\n"))
                if (line.length > 20 && !line.startsWith("-----")) assert.ok(!e.message.includes(line), "a secret value in an error");
        return undefined;
    }
    const model = buildClusterModel(config);
    assertPlanDisjoint(config, model);
    assert.ok(nbctlShow(desiredNorthbound(model, "fuzz/stack")).length > 0);
    if (model.writer === "ovnkube") assert.ok(manifestList(kubeManifests(model.kube)).length > 0);
    return config;
}

/** What the program's component registers for an accepted config, under the mocks `withMocks` set up. */
export interface MockedProgram {
    /** `raw`: the case as written (what the component takes); `config`: as validation returned it. */
    register(raw: Record<string, any>, config: StackConfig, texts: SecretTexts): Promise<number>;
}

/**
 * Sets Pulumi's mocks for this process and returns how to run the cluster component for one config:
 * it must register resources, and no registration or Output may fail.
 */
export async function withMocks(): Promise<MockedProgram> {
    const registered: string[] = [];
    const failures: unknown[] = [];
    process.on("unhandledRejection", (e) => failures.push(e));
    // The webhook certificate's key pair takes a second to make: one serves every case.
    let webhook: Record<string, unknown> | undefined;
    const state = async (a: pulumi.runtime.MockResourceArgs) =>
        a.type === WEBHOOK_CERTIFICATE ? { ...(webhook ??= await programState(a)), ...a.inputs } : programState(a);
    await pulumi.runtime.setMocks(
        { newResource: async (a) => (registered.push(a.name), { id: `${a.name}-id`, state: await state(a) }), call: (a) => a.inputs },
        "ovn-kubernetes",
        "fuzz",
        false,
    );
    const errors: string[] = [];
    // Errors are collected as failures; the per-stack info line would repeat for every case.
    const log = pulumi.log as { error: typeof pulumi.log.error; info: typeof pulumi.log.info; warn: typeof pulumi.log.warn };
    log.error = async (message: string) => void errors.push(message);
    log.info = async () => {};
    log.warn = async () => {};
    let n = 0;
    return {
        async register(raw, config, texts) {
            const before = registered.length;
            const isSecret = (k: string) => (SECRET_KEYS as readonly string[]).includes(k);
            const secrets = Object.fromEntries(
                Object.keys(raw)
                    .filter(isSecret)
                    .map((k) => [k, pulumi.secret(texts[k as SecretKey] ?? SECRET_PRESENT.secure)]),
            );
            const settings = Object.fromEntries(Object.entries(raw).filter(([k]) => !isSecret(k)));
            // The release's CRDs come from the lab's copies: the component reads them, and tests never reach the network.
            const withMirror = {
                ...settings,
                ovnkube: { ...settings.ovnkube, crdMirror: labCrdMirror(config.ovnkube.version) },
            } as ClusterSettings;
            // The SDK keeps a stack trace with every promise it makes, which costs more than the rest
            // of a case; the component's failures are caught by message.
            const limit = Error.stackTraceLimit;
            Error.stackTraceLimit = 0;
            const cluster = new OvnKubernetesCluster(`c${n++}`, {
                ...withMirror,
                ...secrets,
                sshPrivateKey: secrets.sshPrivateKey,
                owner: "fuzz/stack",
                sshPrivateKeyConfig: "ovn-kubernetes:sshPrivateKey",
            });
            await pulumi.output(cluster.kubernetesServer).apply((s) => s);
            await (pulumi.runtime as unknown as { waitForRPCs(): Promise<void> }).waitForRPCs();
            Error.stackTraceLimit = limit;
            assert.deepEqual([...failures, ...errors], [], "the program failed for a config validate accepted");
            return registered.length - before;
        },
    };
}

/** Runs `runs` cases; every `every`-th accepted one also through the program when `program` is given. Returns the counts. */
export async function runFuzz(
    runs: number,
    program?: MockedProgram,
    seed?: number,
    every = 1,
): Promise<{ runs: number; accepted: number; dualStack: number; programs: number; registered: number }> {
    let accepted = 0;
    let dualStack = 0;
    let programs = 0;
    let registered = 0;
    await fc.assert(
        fc.asyncProperty(fuzzCase, async (c) => {
            const config = validateAndRender(c);
            if (!config) return;
            accepted++;
            if (config.ipFamilies.length > 1) dualStack++;
            if (program && accepted % every === 0) {
                const count = await program.register(c.raw, config, c.texts);
                assert.ok(count > 0, "an accepted config registered nothing");
                programs++;
                registered += count;
            }
        }),
        { numRuns: runs, ...(seed === undefined ? {} : { seed }) },
    );
    return { runs, accepted, dualStack, programs, registered };
}
