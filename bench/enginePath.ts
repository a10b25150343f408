// Engine-path benchmark: the NB topology of N nodes applied the way `pulumi up` drives the NB
// resources. The resources are registered under the SDK's mocks (their `__provider` is the stub the
// engine would store), then the SDK's dynamic-provider host, started as the engine starts it (cwd =
// the project), gets Check then Create per resource over gRPC, the cluster router first and then
// up to 16 in flight (the engine's default parallelism), into a fresh real NB behind a real sshd. The
// floor is the same rows as ONE transaction over one SSH connection (./floor). Each is run R times
// on a fresh NB and fresh connections; min, median and max are printed, and the median ratio
// against the target of 2x the floor. The host's own start (about 1.4 s, paid once per `up`
// whatever it does) is outside the timing; its SSH login to the NB host is inside. Beside them,
// the same calls with the same property bags to a provider that does nothing (NOOP_PROVIDER):
// what the SDK's host and gRPC cost on this path whatever the provider does.
//
// A last run, not timed, profiles the provider host (node --cpu-prof) and prints where its CPU went
// while it served the calls, by origin and by function; --keep-profile DIR keeps the .cpuprofile.
//
//   node --import tsx bench/enginePath.ts [N] [--runs R] [--keep-profile DIR]   (default 500 nodes, 5 runs)
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { NB_DB, closeNbSessions } from "@ovn-kubernetes-as-code/cluster/nb";
import { closeOvsdbPool, closeSshPool, openOvsdbOverSsh } from "@ovn-kubernetes-as-code/cluster/ssh";
import {
    track,
    up,
    type Tracked,
    KEY_CONFIG,
    PROJECT_ROOT,
    startProviderHost,
    gatewayHosts,
    scaleModel,
    registerUnderMocks,
    startSshd,
} from "@ovn-kubernetes-as-code/lab/harness";
import { cpuProfileArgs, profileClockUs, topEntries } from "./cpuProfile";
import { processCpu } from "./procCpu";
import { singleTransaction } from "./floor";
import { nbServerPool, rowCounts } from "./nbServers";
import { groups } from "./topology";

const OWNER = "ovn-kubernetes/bench";
/** A provider text as the engine stores one, whose check and create return at once. */
const NOOP_PROVIDER =
    'exports.handler = () => ({ check: async (_olds, news) => ({ inputs: news }), create: async (inputs) => ({ id: "noop", outs: inputs }) });\n';
const PARALLEL = 16;
const TARGET = 2;
/** The providers against the provider that does nothing, through the same host. */
const NOOP_TARGET = 1.3;

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
/** CPU seconds (user + system) a process has used so far. */
const cpuSeconds = (pid: number): number => processCpu(pid).own;
const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
};
const show = (xs: number[]) => {
    const { min, median, max } = stats(xs);
    return `min ${min.toFixed(3)} s, median ${median.toFixed(3)} s, max ${max.toFixed(3)} s`;
};

/** Check then Create of every resource as the engine's step workers do: the first alone, then up to PARALLEL in flight. */
async function drive(host: Awaited<ReturnType<typeof startProviderHost>>, tracked: Tracked[]): Promise<number> {
    const start = process.hrtime.bigint();
    await up(host, tracked[0]);
    let next = 1;
    const worker = async () => {
        while (next < tracked.length) await up(host, tracked[next++]);
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    return seconds(start);
}

function freshPools(): void {
    closeNbSessions();
    closeOvsdbPool();
    closeSshPool();
}

async function main(): Promise<void> {
    const argv = process.argv.slice(2);
    const runsAt = argv.indexOf("--runs");
    const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 5;
    const keepAt = argv.indexOf("--keep-profile");
    const keepProfile = keepAt >= 0 ? argv[keepAt + 1] : undefined;
    const nodes = Number(argv.find((a, i) => /^\d+$/.test(a) && i !== runsAt + 1 && i !== keepAt + 1) ?? 500);
    process.setMaxListeners(64);
    const sshd = await startSshd();
    const servers = nbServerPool();
    const freshNb = servers.fresh;
    try {
        const model = scaleModel(nodes - 1, 3); // plus the central master
        const hosts = gatewayHosts(model);
        // Registered once: the NB socket is the only input that differs between runs.
        const registered = await registerUnderMocks({
            model,
            owner: OWNER,
            nb: { ssh: sshd.target(), privateKeyConfig: KEY_CONFIG, socket: "/nonexistent" },
            gatewayHost: hosts,
        });
        console.log(
            `engine path: ${registered.length} NB resources (${nodes} nodes, ${model.gateways.length} gateways), Check then Create over gRPC, ${PARALLEL} in parallel; ${runs} runs each`,
        );
        const engine: number[] = [];
        const cpu = { host: 0, driver: 0, noopHost: 0 };
        const floor: number[] = [];
        const noop: number[] = [];
        let counts = "";
        for (let run = 0; run < runs; run++) {
            const nb = await freshNb();
            const tracked: Tracked[] = registered.map(track);
            for (const t of tracked) t.registered.nb = { ...t.registered.nb, socket: nb.socket };
            const host = await startProviderHost({ [KEY_CONFIG]: sshd.privateKey });
            try {
                const hostCpu = cpuSeconds(host.pid);
                const driverCpu = process.cpuUsage();
                engine.push(await drive(host, tracked));
                cpu.host += cpuSeconds(host.pid) - hostCpu;
                const used = process.cpuUsage(driverCpu);
                cpu.driver += (used.user + used.system) / 1e6;
            } finally {
                await host.stop();
            }
            const idle = await startProviderHost({});
            try {
                const idleCpu = cpuSeconds(idle.pid);
                noop.push(
                    await drive(
                        idle,
                        registered.map(track).map((t) => ({ ...t, registered: { ...t.registered, __provider: NOOP_PROVIDER } })),
                    ),
                );
                cpu.noopHost += cpuSeconds(idle.pid) - idleCpu;
            } finally {
                await idle.stop();
            }
            counts = await rowCounts(nb);

            const nbFloor = await freshNb();
            freshPools();
            const ops = singleTransaction(OWNER, groups(OWNER, model, hosts));
            const start = process.hrtime.bigint();
            await (await openOvsdbOverSsh(sshd.target(), sshd.privateKey, { unixSocket: nbFloor.socket })).transact(NB_DB, ops);
            floor.push(seconds(start));
            freshPools();
            const floorCounts = await rowCounts(nbFloor);
            if (floorCounts !== counts) throw new Error(`the floor built other rows than the providers: ${floorCounts} vs ${counts}`);
            await servers.release();
        }
        const ratio = stats(engine).median / stats(floor).median;
        console.log(`  rows: ${counts}`);
        console.log(`  providers through the host: ${show(engine)}`);
        console.log(`  one transaction (floor):    ${show(floor)}`);
        console.log(
            `  a provider that does nothing, same calls: ${show(noop)} (${(stats(noop).median / stats(floor).median).toFixed(2)}x the floor: the host's and gRPC's own cost; host CPU ${(cpu.noopHost / runs).toFixed(2)} s per run)`,
        );
        console.log(
            `  CPU per run: provider host ${(cpu.host / runs).toFixed(2)} s, this engine stand-in ${(cpu.driver / runs).toFixed(2)} s (2 cores here)`,
        );
        console.log(`  median ratio ${ratio.toFixed(2)}x the floor (target ≤${TARGET}x: ${ratio <= TARGET ? "met" : "MISSED"})`);
        const noopRatio = stats(engine).median / stats(noop).median;
        console.log(
            `  providers ${noopRatio.toFixed(2)}x the provider that does nothing (target ≤${NOOP_TARGET}x: ${noopRatio <= NOOP_TARGET ? "met" : "MISSED"})`,
        );

        // One more run of each, profiled and not timed (the profiler slows the host down).
        const profiled = async (label: string, config: Record<string, string>, tracked: Tracked[]) => {
            const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-path-profile-"));
            try {
                const host = await startProviderHost(config, PROJECT_ROOT, cpuProfileArgs(dir));
                const window = { fromUs: profileClockUs(), toUs: 0 };
                try {
                    await drive(host, tracked);
                    window.toUs = profileClockUs();
                } finally {
                    await host.stop();
                }
                const top = topEntries(dir, 15, window);
                console.log(
                    `  ${label} (node --cpu-prof, one run, the Check and Create calls only): ${top.totalMs.toFixed(0)} ms of CPU sampled, by origin:`,
                );
                for (const line of top.origins.slice(0, 8)) console.log(`    ${line}`);
                return top;
            } finally {
                if (keepProfile) fs.cpSync(dir, path.join(keepProfile, label.replace(/\W+/g, "-")), { recursive: true });
                fs.rmSync(dir, { recursive: true, force: true });
            }
        };
        const nb = await freshNb();
        const tracked: Tracked[] = registered.map(track);
        for (const t of tracked) t.registered.nb = { ...t.registered.nb, socket: nb.socket };
        const top = await profiled("provider host profile", { [KEY_CONFIG]: sshd.privateKey }, tracked);
        await servers.release();
        console.log("  top functions by self time:");
        for (const line of top.functions) console.log(`    ${line}`);
        await profiled(
            "the do-nothing provider's host",
            {},
            registered.map(track).map((t) => ({ ...t, registered: { ...t.registered, __provider: NOOP_PROVIDER } })),
        );
    } finally {
        freshPools();
        await servers.release();
        await sshd.cleanup();
    }
}

main().then(
    () => process.exit(0),
    (e) => {
        console.error(e);
        process.exit(1);
    },
);
