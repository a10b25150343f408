// Whole-stack state benchmark (prints figures, times nothing): what every resource kind the program
// registers puts in the checkpoint at 3, 100 and 500 nodes, in Pulumi mode (stacks/Pulumi.dev.yaml)
// and ovnkube mode (stacks/Pulumi.staging.yaml, and in dual stack stacks/Pulumi.dual.yaml), the
// extra nodes copies of the stacks' plain node.
// Each program runs under the SDK's mocks in its own process (lab/harness/pulumiMocks.ts); a
// resource's outputs are its inputs plus, for a host command, what its script prints on success
// (its result line and the line naming its log). The SSH key is a real ed25519 key. Secrets sealed as the checkpoint keeps them
// (offline/state.ts); the file laid out as Pulumi's file backend writes it, with what the engine
// records of each registration (./pulumiCheckpoint). NB outputs add the rows' UUIDs to this
// (measured by bench/nbState.ts). Each figure in both layouts: indented, as the file backend wrote
// it before Pulumi 3.238.0, and minified, as it writes it since; the minified file also compressed
// as that backend compresses it, gzip with PULUMI_DIY_BACKEND_GZIP=true, zstd with
// PULUMI_DIY_BACKEND_ZSTD=true (3.224.0 on; pulumi sdk/go/common/env/env.go) at both libraries'
// default levels. And what a first up writes in all: that backend writes the whole file again at
// every step.
//
//   node --import tsx bench/state.ts [N ...]     (default 3 100 500)
import { spawnSync } from "node:child_process";
import { gzipSync, zstdCompressSync } from "node:zlib";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { generateKeyPairSync } from "node:crypto";
import { minifiedJson, PROJECT, pulumiCheckpoint, pulumiJson, RESOURCE_DEPTH } from "./pulumiCheckpoint";

const kB = (b: number) => `${(b / 1024).toFixed(1)} KB`;
const MB = (b: number) => `${(b / 1024 / 1024).toFixed(2)} MB`;
const GB = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GB`;
const MODES = { pulumi: "dev", ovnkube: "staging", "ovnkube dual-stack": "dual" } as const;

/** A new ed25519 public key as an OpenSSH line (node:crypto: ssh2's generator writes a malformed key now and then). */
function ed25519PublicKeyLine(): string {
    const raw = Buffer.from(generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }).x as string, "base64url");
    const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
    return `ssh-ed25519 ${Buffer.concat([field(Buffer.from("ssh-ed25519")), field(raw)]).toString("base64")}`;
}

/** The kind a resource is counted under. */
function kindOf(type: string): string {
    if (type === "command:remote:Command") return "host command";
    if (type.startsWith("pulumi-nodejs:dynamic/hosts:ScriptBundle")) return "script bundle";
    if (type.startsWith("pulumi-nodejs:dynamic/ovn-nb:")) return "NB";
    if (type.startsWith("pulumi-nodejs:dynamic/")) return "check / guard";
    if (type.startsWith("kubernetes:")) return "Kubernetes";
    if (type.startsWith("pulumi:providers:")) return "provider";
    return "component";
}

/**
 * What a first up makes a file backend write in all: each create writes the file twice, once with
 * the operation pending and once with the resource (pulumi pkg/backend/snapshot.go, doCreate and
 * createSnapshotMutation.End), each time holding every resource created so far (registration order;
 * the engine's step order differs little in size).
 */
function firstUpWrites(total: number, sizes: number[]): number {
    let written = 0;
    let file = total - sizes.reduce((a, b) => a + b, 0);
    for (const size of sizes) written += 2 * (file += size);
    return written;
}

async function child(stack: string, nodes: number, out: string): Promise<void> {
    const { readStackFile } = await import("@ovn-kubernetes-as-code/cluster/config");
    const { runProgramUnderMocks, TEST_SECRETS } = await import("@ovn-kubernetes-as-code/lab/harness");
    // A real key's size (the test secrets are short): ed25519, OpenSSH format, as users keep it.
    spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path.join(out, "key")]);
    TEST_SECRETS.sshPrivateKey = fs.readFileSync(path.join(out, "key"), "utf8");
    const { ROOT } = await import("@ovn-kubernetes-as-code/lab/harness");
    const { saveState, Keyring } = await import("@ovn-kubernetes-as-code/lab/offline");
    const raw = readStackFile(path.join(ROOT, "stacks", `Pulumi.${stack}.yaml`)) as Record<string, any>;
    const given = raw.nodes as Array<Record<string, any>>;
    const plainGiven =
        given.find((n) => !n.roles.includes("gateway") && !n.roles.includes("central") && n.roles.includes("node")) ??
        given[given.length - 1];
    // Subnets allocated from the larger cluster subnet below.
    const { subnet: _, ...plain } = plainGiven;
    const list = given.map(({ subnet: _s, ...n }) => n);
    // A dual-stack stack (a CIDR of each family, joined by a comma): every added node has an IPv6 node IP of its own too.
    const dual = String(raw.clusterSubnet).includes(",");
    for (let i = given.length; i < nodes; i++) {
        const address = `10.${100 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`;
        const n: Record<string, any> = { ...plain, name: `node-${i}`, address };
        if (dual) n.nodeIp = `${address},fd00:20::1:${i.toString(16)}`;
        // Every host its own key: validation refuses a key shared between hosts.
        if (plain.hostKey !== undefined) n.hostKey = `${ed25519PublicKeyLine()} node-${i}`;
        list.push(n);
    }
    // Room for 500 /24 node subnets (the stacks' /16 holds 256); a /48 holds 65536 IPv6 /64s.
    const clusterSubnet = dual ? `10.128.0.0/9,${String(raw.clusterSubnet).split(",")[1]}` : "10.128.0.0/9";
    const { resources } = await runProgramUnderMocks(stack, { nodes: list.slice(0, Math.max(nodes, 1)), clusterSubnet });
    // Sealed as the offline engine seals secrets (the ciphertext Pulumi's passphrase provider writes).
    const sealedFile = path.join(out, "sealed.json");
    const flat = { version: 1, project: PROJECT, stack, updated: "", outputs: {}, resources: [] as any[] };
    for (const r of resources) {
        // A component's outputs are what it registered (none until it does), a custom resource's its inputs and more.
        const outputs = r.registration?.custom === false ? { ...(r.registration.outputs ?? {}) } : { ...r.inputs };
        if (r.type === "command:remote:Command")
            Object.assign(outputs, {
                stdout: "3f1e4d5c-0b6a-4e8f-9a7d-2c1b0e9f8a76\n",
                stderr: "log /var/log/ovn-kubernetes-as-code/chassis-create.log\n",
            });
        flat.resources.push({
            urn: r.registration!.urn,
            type: r.type,
            name: r.name,
            parent: "",
            custom: true,
            inputs: r.inputs,
            outputs,
            dependencies: [],
        });
    }
    saveState(sealedFile, flat as any, new Keyring("state-bench", stack));
    const sealed = JSON.parse(fs.readFileSync(sealedFile, "utf8")).resources;
    const checkpoint = pulumiCheckpoint(stack, ROOT, resources, sealed);
    const file = path.join(out, "state.json");
    const text = pulumiJson(checkpoint);
    const minified = minifiedJson(checkpoint);
    fs.writeFileSync(file, text);
    // A resource's share of the file: indented at its depth and its line's indent, or minified, each with its comma.
    const rows = checkpoint.checkpoint.latest.resources.map((r: any) => ({
        kind: kindOf(r.type),
        bytes: 4 * RESOURCE_DEPTH + Buffer.byteLength(pulumiJson(r, RESOURCE_DEPTH)) + 2,
        minified: Buffer.byteLength(minifiedJson(r)) + 1,
    }));
    // STATE_BENCH_DUMP=DIR keeps each checkpoint there as <stack>-<nodes>.json.
    if (process.env.STATE_BENCH_DUMP) fs.copyFileSync(file, path.join(process.env.STATE_BENCH_DUMP, `${stack}-${nodes}.json`));
    const layout = (t: string, sizes: number[]) => {
        const total = Buffer.byteLength(t);
        return { total, gzipped: gzipSync(t).length, firstUp: firstUpWrites(total, sizes) };
    };
    const indented = layout(
        text,
        rows.map((r) => r.bytes),
    );
    const compact = {
        ...layout(
            minified,
            rows.map((r) => r.minified),
        ),
        zstd: zstdCompressSync(minified).length,
    };
    fs.writeFileSync(path.join(out, "rows.json"), JSON.stringify({ nodes: list.length, indented, minified: compact, rows }));
}

interface Layout {
    total: number;
    gzipped: number;
    /** What a first up writes in all. */
    firstUp: number;
}

interface Measured {
    nodes: number;
    indented: Layout;
    minified: Layout & { zstd: number };
    rows: Array<{ kind: string; bytes: number; minified: number }>;
}

function measure(stack: string, nodes: number): Measured {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "state-bench-"));
    try {
        const r = spawnSync(process.execPath, ["--import", "tsx", __filename, "--child", stack, String(nodes), out], {
            encoding: "utf8",
            maxBuffer: 1 << 26,
        });
        if (r.status !== 0) throw new Error(`${stack} at ${nodes} nodes: ${r.stderr}`);
        return JSON.parse(fs.readFileSync(path.join(out, "rows.json"), "utf8")) as Measured;
    } finally {
        fs.rmSync(out, { recursive: true, force: true });
    }
}

function main(): void {
    if (process.argv[2] === "--child") {
        child(process.argv[3], Number(process.argv[4]), process.argv[5]).then(
            () => process.exit(0),
            (e) => (console.error(e), process.exit(1)),
        );
        return;
    }
    const sizes = process.argv.slice(2).map(Number);
    for (const [mode, stack] of Object.entries(MODES)) {
        for (const n of sizes.length ? sizes : [3, 100, 500]) {
            const m = measure(stack, n);
            const byKind = new Map<string, { count: number; bytes: number; minified: number }>();
            for (const r of m.rows) {
                const k = byKind.get(r.kind) ?? { count: 0, bytes: 0, minified: 0 };
                byKind.set(r.kind, { count: k.count + 1, bytes: k.bytes + r.bytes, minified: k.minified + r.minified });
            }
            const hostKinds = ["host command", "script bundle", "check / guard"];
            const host = (field: "bytes" | "minified") => hostKinds.reduce((a, k) => a + (byKind.get(k)?.[field] ?? 0), 0) / m.nodes;
            const { indented: i, minified: c } = m;
            console.log(`${mode} mode, ${m.nodes} nodes:`);
            console.log(
                `  state          indented ${MB(i.total)} (gzip ${MB(i.gzipped)}); minified ${MB(c.total)} (gzip ${MB(c.gzipped)}, zstd ${MB(c.zstd)})`,
            );
            console.log(`  host resources indented ${kB(host("bytes"))} per host; minified ${kB(host("minified"))} per host`);
            console.log(
                `  a first up     indented ${GB(i.firstUp)} (gzip about ${GB((i.firstUp * i.gzipped) / i.total)}); ` +
                    `minified ${GB(c.firstUp)} (gzip about ${GB((c.firstUp * c.gzipped) / c.total)}, zstd about ${GB((c.firstUp * c.zstd) / c.total)})`,
            );
            console.log(
                `  ${"kind".padEnd(14)} ${"count".padStart(5)}           ${"indented".padStart(10)}  ${"per host".padStart(8)}  ${"each".padStart(8)}  ${"minified".padStart(10)}  ${"per host".padStart(8)}  ${"each".padStart(8)}`,
            );
            for (const [kind, k] of [...byKind].sort((a, b) => b[1].bytes - a[1].bytes))
                console.log(
                    `  ${kind.padEnd(14)} ${String(k.count).padStart(5)} resources ${kB(k.bytes).padStart(10)}  ${kB(k.bytes / m.nodes).padStart(8)}  ${kB(k.bytes / k.count).padStart(8)}` +
                        `  ${kB(k.minified).padStart(10)}  ${kB(k.minified / m.nodes).padStart(8)}  ${kB(k.minified / k.count).padStart(8)}`,
                );
        }
    }
}

main();
