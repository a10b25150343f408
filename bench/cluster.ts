// Benchmark (not a test): bring-up of a local cluster and the offline apply of the whole program
// on it, for 3 and 8 hosts by default. Prints seconds per phase.
//   node --import tsx bench/cluster.ts                          Pulumi mode for 3 and 8 hosts, ovnkube mode for 3
//                                                               with OVN from the packages and from the image
//   node --import tsx bench/cluster.ts [N ...]                  Pulumi mode on Debian 12 hosts
//   node --import tsx bench/cluster.ts --kubernetes [N ...]     ovnkube mode (ovn-kubernetes 1.3,
//        interconnect) on Debian unstable hosts with the local Kubernetes v1.36 and the upstream
//        kubelet and containerd (bring-up includes the control plane, the kubelets and the image
//        imports; the apply installs OVS/OVN with apt-get and waits for ovnkube to realise the
//        topology in every zone), printed beside the kubelet stand-in's figure from before it went
//   node --import tsx bench/cluster.ts --ovn-from-image [N ...] ovnkube mode with OVN from the image
//        (ovnkube.ovnSource image) on Debian 13 hosts: the apply installs only OVS and waits for
//        each zone's OVN to start in its ovnkube-node pod
//   --id ID                                                     the local cluster's id (default bench)
// After the table: the second (no-op) apply's profile per run, next to the figure before that
// apply was made cheap (7.0 s at 8 hosts in Pulumi mode).
import * as fs from "fs";
import { tmpdir } from "os";
import * as path from "path";
import { down, LOCAL_LAB_PASSPHRASE, up, upWithKubernetes, writeLocalStack } from "@ovn-kubernetes-as-code/lab/localcluster";
import { apply, destroy, type OperationResult } from "@ovn-kubernetes-as-code/lab/offline";

let ID = "bench";

/** The no-op apply's time at 8 hosts in Pulumi mode before it was made cheap (same machine, uncontended). */
const NOOP_BEFORE_S: Record<string, number> = { "pulumi/8": 7.0 };
/**
 * Bring-up of 3 Debian unstable hosts with Kubernetes when a kubelet stand-in (processes instead of
 * containers, no images) ran them, before the upstream kubelet replaced it (load average about 15).
 */
const STAND_IN_BRING_UP_S: Record<number, number> = { 3: 16.6 };

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
    const t = process.hrtime.bigint();
    const v = await f();
    return [v, Number(process.hrtime.bigint() - t) / 1e9];
}

/** Pulumi mode, or ovnkube mode with OVN from the hosts' packages (Debian unstable) or from the image (Debian 13). */
type Mode = "pulumi" | "packages" | "image";
/** A run: hosts and mode. */
type Run = [hosts: number, mode: Mode];

const MODE_LABEL: Record<Mode, string> = { pulumi: "pulumi", packages: "ovnkube ic", image: "ovnkube ic, image" };

async function bringUp(hosts: number, mode: Mode) {
    if (mode === "pulumi") return { cluster: await up({ id: ID, hosts }), stackOptions: {} };
    const os = mode === "image" ? "debian13" : "debian-sid";
    const { cluster, kubernetes: k } = await upWithKubernetes({ id: ID, hosts, os, log: () => undefined });
    return {
        cluster,
        stackOptions: {
            kubernetes: { apiServerUrl: k.controlPlane.apiServerUrl, kubeconfig: k.controlPlane.adminKubeconfig.content },
            ...(mode === "image" && { ovnkube: { ovnSource: "image" as const } }),
        },
    };
}

async function run([hosts, mode]: Run) {
    const kubernetes = mode !== "pulumi";
    await down(ID);
    const work = fs.mkdtempSync(path.join(tmpdir(), "bench-cluster-"));
    try {
        const [{ cluster, stackOptions }, upS] = await timed(() => bringUp(hosts, mode));
        const stack = `local-${ID}`;
        const stackFile = writeLocalStack(cluster, path.join(work, `Pulumi.${stack}.yaml`), {
            passphrase: LOCAL_LAB_PASSPHRASE,
            ...stackOptions,
        });
        const options = { stack, stackFile, localDir: work, passphrase: LOCAL_LAB_PASSPHRASE };
        const [first, applyS] = await timed(() => apply(options));
        if (!first.ok) throw new Error(first.error);
        const [second, againS] = await timed(() => apply(options));
        if (!second.ok) throw new Error(second.error);
        const [gone, destroyS] = await timed(() => destroy(options));
        if (!gone.ok) throw new Error(gone.error);
        const [, downS] = await timed(() => down(ID));
        return {
            mode: MODE_LABEL[mode],
            hosts,
            kubernetes,
            resources: first.counts.created,
            upS,
            applyS,
            againS,
            changedAgain: second.ops.filter((o) => o.op !== "same").length,
            destroyS,
            downS,
            noop: second,
        };
    } finally {
        await down(ID);
        fs.rmSync(work, { recursive: true, force: true });
    }
}

async function main() {
    const args = process.argv.slice(2);
    const idAt = args.indexOf("--id");
    if (idAt >= 0) ID = args.splice(idAt, 2)[1];
    const mode: Mode = args.includes("--ovn-from-image") ? "image" : args.includes("--kubernetes") ? "packages" : "pulumi";
    const sizes = args.filter((a) => a !== "--kubernetes" && a !== "--ovn-from-image").map(Number);
    const runs: Run[] =
        args.length === 0
            ? [
                  [3, "pulumi"],
                  [8, "pulumi"],
                  [3, "packages"],
                  [3, "image"],
              ]
            : (sizes.length ? sizes : [3]).map((n): Run => [n, mode]);
    const rows = [];
    for (const r of runs) rows.push(await run(r));
    console.log("mode                  hosts  resources  bring-up  apply  2nd apply (changes)  destroy  down   (seconds)");
    for (const r of rows)
        console.log(
            `${r.mode.padEnd(20)}  ${String(r.hosts).padStart(5)}  ${String(r.resources).padStart(9)}  ${r.upS.toFixed(2).padStart(8)}  ${r.applyS.toFixed(1).padStart(5)}  ${r.againS.toFixed(1).padStart(9)} (${r.changedAgain})${" ".repeat(7)}${r.destroyS.toFixed(1).padStart(7)}  ${r.downS.toFixed(2).padStart(5)}`,
        );
    for (const real of rows.filter((r) => r.kubernetes && r.mode === MODE_LABEL.packages)) {
        const standIn = STAND_IN_BRING_UP_S[real.hosts];
        console.log(
            `\nbring-up of ${real.hosts} hosts with Kubernetes: ${real.upS.toFixed(1)} s with the upstream kubelet and containerd${standIn ? ` (before, with the kubelet stand-ins: ${standIn.toFixed(1)} s)` : ""}`,
        );
    }
    for (const image of rows.filter((r) => r.mode === MODE_LABEL.image)) {
        const packaged = rows.find((r) => r.mode === MODE_LABEL.packages && r.hosts === image.hosts);
        console.log(
            `\n${image.hosts} hosts, OVN from the image (Debian 13) beside the packages (Debian unstable): bring-up ${image.upS.toFixed(1)} s` +
                `${packaged ? ` vs ${packaged.upS.toFixed(1)} s` : ""}, first up ${image.applyS.toFixed(1)} s${packaged ? ` vs ${packaged.applyS.toFixed(1)} s` : ""}`,
        );
    }
    for (const r of rows) printNoopProfile(`${r.mode}/${r.hosts}`, r.againS, r.noop);
}

/** The no-op apply: its time next to the earlier figure, then where that time went. */
function printNoopProfile(key: string, seconds: number, result: OperationResult) {
    const before = NOOP_BEFORE_S[key];
    console.log(
        `\nno-op up, ${key.replace("/", " mode, ")} hosts, ${new Date().toISOString()}: ${seconds.toFixed(2)} s${before ? ` (before: ${before.toFixed(1)} s)` : ""}`,
    );
    const { milestones = {}, totals = {} } = result.profile ?? {};
    for (const [name, ms] of Object.entries(milestones)) console.log(`  at ${(ms / 1000).toFixed(2).padStart(6)} s  ${name}`);
    for (const [name, t] of Object.entries(totals)) console.log(`  ${(t.ms / 1000).toFixed(2).padStart(9)} s  ${name} (${t.count})`);
    // Steps overlap (16 at a time): per type, how many, their summed time and the slowest.
    const byType = new Map<string, { n: number; ms: number; max: number }>();
    for (const o of result.ops) {
        const e = byType.get(o.type) ?? { n: 0, ms: 0, max: 0 };
        byType.set(o.type, { n: e.n + 1, ms: e.ms + o.ms, max: Math.max(e.max, o.ms) });
    }
    for (const [type, e] of [...byType].sort((a, b) => b[1].ms - a[1].ms).filter(([, e]) => e.ms > 0))
        console.log(`  steps ${type}: ${e.n}, ${(e.ms / 1000).toFixed(2)} s in all, slowest ${(e.max / 1000).toFixed(2)} s`);
}

main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
});
