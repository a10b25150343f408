// Benchmark (not a test): bring-up of a local cluster and the offline apply of the whole program
// on it, for 3 and 8 hosts by default. Prints seconds per phase.
//   node --import tsx bench/cluster.ts [N ...]
import * as fs from "fs";
import { tmpdir } from "os";
import * as path from "path";
import { down, LOCAL_LAB_PASSPHRASE, up, writeLocalStack } from "../localcluster";
import { apply, destroy } from "../offline/api";

const ID = "bench";

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
    const t = process.hrtime.bigint();
    const v = await f();
    return [v, Number(process.hrtime.bigint() - t) / 1e9];
}

async function run(hosts: number) {
    await down(ID);
    const work = fs.mkdtempSync(path.join(tmpdir(), "bench-cluster-"));
    try {
        const [cluster, upS] = await timed(() => up({ id: ID, hosts }));
        const stack = `local-${ID}`;
        const stackFile = writeLocalStack(cluster, path.join(work, `Pulumi.${stack}.yaml`), { passphrase: LOCAL_LAB_PASSPHRASE });
        const options = { stack, stackFile, localDir: work, passphrase: LOCAL_LAB_PASSPHRASE };
        const [first, applyS] = await timed(() => apply(options));
        if (!first.ok) throw new Error(first.error);
        const [second, againS] = await timed(() => apply(options));
        if (!second.ok) throw new Error(second.error);
        const [gone, destroyS] = await timed(() => destroy(options));
        if (!gone.ok) throw new Error(gone.error);
        const [, downS] = await timed(() => down(ID));
        return { hosts, resources: first.counts.created, upS, applyS, againS, changedAgain: second.ops.filter((o) => o.op !== "same").length, destroyS, downS };
    } finally {
        await down(ID);
        fs.rmSync(work, { recursive: true, force: true });
    }
}

async function main() {
    const sizes = process.argv.slice(2).map(Number);
    const rows = [];
    for (const n of sizes.length ? sizes : [3, 8]) rows.push(await run(n));
    console.log("hosts  resources  bring-up  apply  2nd apply (changes)  destroy  down   (seconds)");
    for (const r of rows)
        console.log(
            `${String(r.hosts).padStart(5)}  ${String(r.resources).padStart(9)}  ${r.upS.toFixed(2).padStart(8)}  ${r.applyS.toFixed(1).padStart(5)}  ${r.againS.toFixed(1).padStart(9)} (${r.changedAgain})${" ".repeat(7)}${r.destroyS.toFixed(1).padStart(7)}  ${r.downS.toFixed(2).padStart(5)}`,
        );
}

main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
});
