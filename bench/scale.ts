// Per-host cost of preview, no-op up and refresh (prints figures, asserts nothing): local clusters
// of 3, 10 and 20 light hosts (Debian 12 namespaces sharing this machine's packages, so the
// package step is skipped), Pulumi mode, built once by the offline engine, then each operation
// timed on the unchanged stack, the best of RUNS (a shared machine's load only adds time). The
// least-squares slope over the sizes is the cost of one more host; the 500-host figure
// extrapolates it. Beside the wall time, the CPU time of the offline engine (this process, in
// place of the Pulumi CLI), of the program and the provider hosts (its children), and of the rest
// of the machine (the lab's hosts: sshd, shells, OVS), which here share 2 cores and on real hosts
// each run on their own.
// Labs are heavy: run nothing else meanwhile.
//
//   node --import tsx bench/scale.ts [N ...] [--lab ID]     (default 3 10 20, lab benchscl)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { down, LOCAL_LAB_PASSPHRASE, up, writeLocalStack } from "@ovn-kubernetes-as-code/lab/localcluster";
import { apply, refresh, type OfflineOptions, type OperationResult } from "@ovn-kubernetes-as-code/lab/offline";
import { machineCpu, processCpu } from "./procCpu";

/** The lab's id (its subnets derive from it): --lab ID, else benchscl. */
const labAt = process.argv.indexOf("--lab");
const ID = labAt >= 0 ? process.argv[labAt + 1] : "benchscl";
const RUNS = 3;
const OPERATIONS = ["preview", "no-op up", "refresh"] as const;
type Operation = (typeof OPERATIONS)[number];

/** The best run's wall seconds, and its CPU seconds: the engine's, the program's and providers', and the rest (the lab's hosts: sshd, shells, OVS). */
interface Timing {
    wall: number;
    engine: number;
    program: number;
    hosts: number;
}

async function timed(what: string, run: () => Promise<OperationResult>, runs = 1): Promise<Timing> {
    let best: Timing = { wall: Infinity, engine: 0, program: 0, hosts: 0 };
    for (let i = 0; i < runs; i++) {
        const [started, own0, machine0] = [process.hrtime.bigint(), processCpu("self"), machineCpu()];
        const r = await run();
        const wall = Number(process.hrtime.bigint() - started) / 1e9;
        if (!r.ok) throw new Error(`${what}: ${r.error}`);
        // This process is the offline engine (in place of the Pulumi CLI); its reaped children are
        // the program and the provider hosts, which every operation starts and stops.
        const own = processCpu("self");
        const [engine, program] = [own.own - own0.own, own.children - own0.children];
        if (wall < best.wall) best = { wall, engine, program, hosts: Math.max(0, machineCpu() - machine0 - engine - program) };
    }
    return best;
}

/** Least-squares slope and intercept of y over x. */
function fit(points: Array<[number, number]>): { slope: number; at: (x: number) => number } {
    const n = points.length;
    const mx = points.reduce((a, [x]) => a + x, 0) / n;
    const my = points.reduce((a, [, y]) => a + y, 0) / n;
    const slope = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
    return { slope, at: (x) => my + slope * (x - mx) };
}

async function measure(hosts: number): Promise<Record<Operation, Timing>> {
    await down(ID);
    const cluster = await up({ id: ID, hosts });
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-scale-"));
    try {
        const stack = `local-${ID}`;
        const stackFile = writeLocalStack(cluster, path.join(work, `Pulumi.${stack}.yaml`), { passphrase: LOCAL_LAB_PASSPHRASE });
        const opts: OfflineOptions = { stack, stackFile, localDir: work, passphrase: LOCAL_LAB_PASSPHRASE };
        const first = await timed(`first up of ${hosts} hosts`, () => apply(opts));
        console.log(`  ${hosts} hosts: first up ${first.wall.toFixed(1)} s`);
        const noChange = async (r: OperationResult) => {
            const changed = r.ops.filter((o) => o.op !== "same");
            if (changed.length) throw new Error(`not a no-op: ${changed.map((o) => `${o.op} ${o.name}`).join(", ")}`);
            return r;
        };
        const out = {
            preview: await timed("preview", async () => noChange(await apply({ ...opts, dryRun: true })), RUNS),
            "no-op up": await timed("no-op up", async () => noChange(await apply(opts)), RUNS),
            refresh: await timed("refresh", () => refresh(opts), RUNS),
        };
        console.log(
            `  ${hosts} hosts: ${OPERATIONS.map((o) => `${o} ${out[o].wall.toFixed(2)} s (CPU: engine ${out[o].engine.toFixed(2)} s, program and providers ${out[o].program.toFixed(2)} s, hosts ${out[o].hosts.toFixed(2)} s)`).join(", ")}`,
        );
        return out;
    } finally {
        await down(ID);
        fs.rmSync(work, { recursive: true, force: true });
    }
}

async function main(): Promise<void> {
    const sizes = process.argv
        .slice(2)
        .filter((a, i) => i + 2 !== labAt && i + 2 !== labAt + 1)
        .map(Number);
    const list = sizes.length ? sizes : [3, 10, 20];
    const results = new Map<number, Record<Operation, Timing>>();
    for (const n of list) results.set(n, await measure(n));
    console.log(`per added host (least squares over ${list.join(", ")} hosts, best of ${RUNS} runs), and 500 hosts extrapolated:`);
    const slope = (o: Operation, k: keyof Timing) => fit(list.map((n) => [n, results.get(n)![o][k]]));
    for (const o of OPERATIONS) {
        const wall = slope(o, "wall");
        console.log(
            `  ${o.padEnd(9)} ${wall.slope.toFixed(3)} s per host; 500 hosts ≈ ${wall.at(500).toFixed(0)} s` +
                ` (CPU per host: engine ${slope(o, "engine").slope.toFixed(3)} s, program and providers ${slope(o, "program").slope.toFixed(3)} s, the lab's hosts ${slope(o, "hosts").slope.toFixed(3)} s)`,
        );
    }
}

main().then(
    () => process.exit(0),
    (e) => {
        console.error(e);
        process.exit(1);
    },
);
