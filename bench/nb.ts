// Benchmark: the NB topology of N nodes (cluster router, N node networks, a few gateways) applied
//   1. by the providers' create path (check + create per resource, 16 at a time, one pooled SSH
//      connection; the serialized provider text run in this process, see ./providers),
//   2. the seeds' way, one `ssh … ovn-nbctl …` process per command (sampled unless --full),
//   3. as one single transaction over one SSH connection (the floor),
// each into a fresh real NB ovsdb-server behind a real sshd on loopback, and prints the times.
//
//   node --import tsx bench/nb.ts [N…] [--gateways G] [--parallel P] [--sample K] [--full]
//
// Targets: providers ≥10x faster than one process per command, within 5x of the single transaction.
import { writeFile } from "fs/promises";
import { join } from "path";
import { NB_DB } from "@ovn-kubernetes-as-code/cluster/nb";
import { closeNbSessions } from "@ovn-kubernetes-as-code/cluster/nb";
import { openOvsdbOverSsh } from "@ovn-kubernetes-as-code/cluster/ssh";
import { closeOvsdbPool } from "@ovn-kubernetes-as-code/cluster/ssh";
import { closeSshPool } from "@ovn-kubernetes-as-code/cluster/ssh";
import { gatewayHosts, scaleModel, type NbServer, startSshd, type TestSshd } from "@ovn-kubernetes-as-code/lab/harness";
import { singleTransaction } from "./floor";
import { mean, sshNbctl, sum } from "./perProcess";
import { createAll, loadProviders } from "./providers";
import { clusterCommands, gatewayCommands, nodeCommands } from "./seedCommands";
import { localNb as local, nbServerPool, rowCounts } from "./nbServers";
import { groups, resources } from "./topology";

const OWNER = "ovn-kubernetes/bench";
function options(argv: string[]) {
    const flag = (name: string, fallback: number) => {
        const i = argv.indexOf(name);
        return i >= 0 ? Number(argv[i + 1]) : fallback;
    };
    const values = new Set(
        [argv.indexOf("--gateways"), argv.indexOf("--parallel"), argv.indexOf("--sample")].filter((i) => i >= 0).map((i) => i + 1),
    );
    const sizes = argv.filter((a, i) => /^\d+$/.test(a) && !values.has(i)).map(Number);
    return {
        sizes: sizes.length ? sizes : [100, 500],
        gateways: flag("--gateways", 3),
        parallel: flag("--parallel", 16),
        sample: flag("--sample", 2),
        full: argv.includes("--full"),
    };
}

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
    const start = process.hrtime.bigint();
    const result = await work();
    return [Number(process.hrtime.bigint() - start) / 1e9, result];
}

async function freshPools(): Promise<void> {
    closeNbSessions();
    closeOvsdbPool();
    closeSshPool();
}

async function main(): Promise<void> {
    const opts = options(process.argv.slice(2));
    // Every fixture server registers an exit hook that kills it; this run starts about a dozen.
    process.setMaxListeners(64);
    const sshd = await startSshd();
    const knownHosts = join(sshd.dir, "known_hosts");
    await writeFile(knownHosts, `[${sshd.host}]:${sshd.port} ${sshd.hostKeyLine}\n`);
    const providers = await loadProviders();
    const servers = nbServerPool();
    const freshNb = servers.fresh;
    try {
        for (const n of opts.sizes) {
            const model = scaleModel(n - 1, opts.gateways); // plus the central master
            const hosts = gatewayHosts(model);
            const all = groups(OWNER, model, hosts);
            console.log(
                `\n== ${n} nodes, ${model.gateways.length} gateways: ${1 + model.nodeNetworks.length + model.gateways.length} resources`,
            );

            // 1. The providers' create path.
            const nb1 = await freshNb();
            await freshPools();
            const loginsBefore = await sshd.acceptedLogins();
            const common = { nb: { ssh: sshd.target(), privateKey: sshd.privateKey, socket: nb1.socket }, owner: OWNER };
            const [tProviders] = await timed(() => createAll(providers, common, resources(model, hosts), opts.parallel));
            const logins = (await sshd.acceptedLogins()) - loginsBefore;
            const counts = await rowCounts(nb1);
            console.log(
                `providers, check+create, ${opts.parallel} in parallel, ${logins} SSH login(s): ${tProviders.toFixed(3)} s  [${counts}]`,
            );

            // 3. The floor: one transaction over one SSH connection (connection set-up included, as above).
            const nb2 = await freshNb();
            await freshPools();
            const ops = singleTransaction(OWNER, all);
            const [tFloor] = await timed(async () =>
                (await openOvsdbOverSsh(sshd.target(), sshd.privateKey, { unixSocket: nb2.socket })).transact(NB_DB, ops),
            );
            const floorCounts = await rowCounts(nb2);
            console.log(
                `one transaction (${ops.length} operations), one SSH connection: ${tFloor.toFixed(3)} s  [${floorCounts === counts ? "same rows as the providers" : floorCounts}]`,
            );
            await freshPools();

            // 2. One process per command.
            const cluster = clusterCommands(model);
            const perNode = nodeCommands(model.nodeNetworks[0]).length;
            const gateway = model.gateways.length ? gatewayCommands(model.gateways[0], hosts[model.gateways[0].node]).length : 0;
            const total = cluster.length + model.nodeNetworks.length * perNode + model.gateways.length * gateway;
            let tPerProcess: number;
            let label: string;
            if (opts.full) {
                const nb3 = await freshNb();
                const runner = sshNbctl(sshd, knownHosts, nb3.socket);
                const captured: Record<string, string> = {};
                const times = await runner.runAll(cluster, captured);
                for (const node of model.nodeNetworks) times.push(...(await runner.runAll(nodeCommands(node), captured)));
                for (const g of model.gateways) times.push(...(await runner.runAll(gatewayCommands(g, hosts[g.node]), captured)));
                tPerProcess = sum(times);
                label = `all ${total} commands run`;
            } else {
                const sample = await sampledPerProcess(model, hosts, opts.sample, sshd, knownHosts, freshNb);
                tPerProcess =
                    cluster.length * sample.cluster +
                    model.nodeNetworks.length * perNode * sample.node +
                    model.gateways.length * gateway * sample.gateway;
                label = `EXTRAPOLATED from ${sample.count} of ${total} commands (mean s/command: cluster ${sample.cluster.toFixed(3)}, node ${sample.node.toFixed(3)} over DB sizes 0, ½, full, gateway ${sample.gateway.toFixed(3)} at full size)`;
            }
            console.log(`one ssh + ovn-nbctl process per command: ${tPerProcess.toFixed(1)} s  [${label}]`);

            const speedup = tPerProcess / tProviders;
            const overFloor = tProviders / tFloor;
            console.log(
                `ratios: per-process / providers = ${speedup.toFixed(0)}x (target ≥10x: ${speedup >= 10 ? "met" : "MISSED"}); providers / single transaction = ${overFloor.toFixed(1)}x (target ≤5x: ${overFloor <= 5 ? "met" : "MISSED"})`,
            );
            await servers.release();
        }
    } finally {
        await freshPools();
        await servers.release();
        await sshd.cleanup();
    }
}

/** Mean seconds per command of each kind, measured with the NB already holding 0, ½ and all of the other nodes. */
async function sampledPerProcess(
    model: ReturnType<typeof scaleModel>,
    hosts: ReturnType<typeof gatewayHosts>,
    k: number,
    sshd: TestSshd,
    knownHosts: string,
    freshNb: () => Promise<NbServer>,
): Promise<{ cluster: number; node: number; gateway: number; count: number }> {
    const nodes = model.nodeNetworks;
    const levels = [0, Math.floor((nodes.length - k) / 2), nodes.length - k];
    const clusterTimes: number[] = [];
    const nodeTimes: number[] = [];
    const gatewayTimes: number[] = [];
    for (const level of levels) {
        const nb = await freshNb();
        const runner = sshNbctl(sshd, knownHosts, nb.socket);
        const captured: Record<string, string> = {};
        const sampled = nodes.slice(level, level + k);
        const last = level === levels[levels.length - 1];
        if (level === 0) {
            clusterTimes.push(...(await runner.runAll(clusterCommands(model), captured)));
        } else {
            // Fill NB with the cluster, the other nodes below this level and (at full size) the other gateways, untimed.
            const fill = groups(OWNER, model, hosts, nodes.slice(0, level), last ? model.gateways.slice(0, -1) : []);
            const client = await local(nb);
            await client.transact(NB_DB, singleTransaction(OWNER, fill));
            client.close();
            for (const lb of ["tcp", "udp"])
                captured[`lb-${lb}`] = (
                    await nb.nbctl("--bare", "--columns=_uuid", "find", "load_balancer", `external_ids:k8s-cluster-lb-${lb}=yes`)
                ).trim();
        }
        for (const node of sampled) nodeTimes.push(...(await runner.runAll(nodeCommands(node), captured)));
        if (last && model.gateways.length) {
            const g = model.gateways[model.gateways.length - 1];
            gatewayTimes.push(...(await runner.runAll(gatewayCommands(g, hosts[g.node]), captured)));
        }
    }
    return {
        cluster: mean(clusterTimes),
        node: mean(nodeTimes),
        gateway: gatewayTimes.length ? mean(gatewayTimes) : 0,
        count: clusterTimes.length + nodeTimes.length + gatewayTimes.length,
    };
}

main().then(
    () => process.exit(0),
    (err) => {
        console.error(err);
        process.exit(1);
    },
);
