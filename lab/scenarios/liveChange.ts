// Changes to a running Pulumi-mode local cluster, made as an operator makes them: edit the stack
// file, run `up`. While the `up` runs, pods on nodes the change does not touch ping each other
// continuously and a caller's probe (the cluster router's default routes, say) is sampled, so a
// test and a benchmark see the same loss figures and samples.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import YAML from "yaml";
import { readStackFile, validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { buildClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { hostExec, ping, startPod, type HostOs, type LocalCluster, type LocalPod } from "../localcluster";
import { CHECK_PORT, managementPortMatrix, tcpExchange, type PingMatrix } from "../localcluster/checks";
import { clusterNames } from "../localcluster/names";
import { awaitChassisCaughtUp, formatCaughtUp } from "../localcluster/overlayReadiness";
import { pollUntil } from "../kubeclient";
import { apply, type OperationResult } from "../offline/api";
import { bringUpPulumiLab, type PulumiLab } from "./pulumiLab";

export const PROJECT_KEY = (key: string) => `ovn-kubernetes:${key}`;

/** Probes sent between two pods and lost. */
export interface Traffic {
    sent: number;
    lost: number;
}

/** A reply line of ping's output, with its sequence number. */
const REPLY = /icmp_seq=(\d+) ttl=/g;

/**
 * `ping -i 0.05` from pod `from` to `ip`, until stopped. Loss is counted by sequence number: every
 * probe sent and never answered, up to the last answered one. ping prints its summary on SIGINT
 * without waiting for the probes still in flight, and with a round trip longer than the interval
 * (a loaded machine) there are several; so the stop first waits, bounded, for a reply sent after it
 * was asked for, which proves the path still works at the end. Without one, every unanswered
 * probe counts, the last ones too.
 */
export function continuousPing(cluster: LocalCluster, from: LocalPod, ip: string): { stop(): Promise<Traffic> } {
    const netns = clusterNames(cluster.id).podNetns(from.node, from.namespace, from.pod);
    const child = spawn("ip", ["netns", "exec", netns, "ping", "-n", "-i", "0.05", "-W", "1", ip], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    // "close", not "exit": the summary ping prints on SIGINT may still be in the pipe when it exits.
    const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
    const replies = (text: string) => [...text.matchAll(REPLY)].map((m) => Number(m[1]));
    return {
        async stop() {
            const asked = out.length;
            const fresh = await pollUntil(async () => (replies(out.slice(asked)).length > 0 ? true : undefined), {
                timeoutMs: 5000,
                intervalMs: 50,
                what: "a reply after the stop",
            }).catch(() => false);
            child.kill("SIGINT");
            await exited;
            const summary = /(\d+) packets transmitted, (\d+) received/.exec(out);
            if (!summary) throw new Error(`ping from ${from.ifaceId} to ${ip} printed no summary:\n${out.slice(-2000)}`);
            const sent = Number(summary[1]);
            const answered = new Set(replies(out));
            const end = fresh ? Math.max(...answered) : sent;
            let lost = 0;
            for (let seq = 1; seq <= end; seq++) if (!answered.has(seq)) lost++;
            return { sent, lost };
        },
    };
}

/** Edits the stack file's `ovn-kubernetes:` config in place (secure values untouched) and returns the new model. */
export function editStack(lab: PulumiLab, edit: (config: Record<string, any>) => void): PulumiLab["model"] {
    const file = lab.options.stackFile!;
    const doc = YAML.parseDocument(fs.readFileSync(file, "utf8"));
    const config = (doc.get("config") as YAML.YAMLMap).toJSON() as Record<string, any>;
    edit(config);
    doc.set("config", config);
    fs.writeFileSync(file, doc.toString({ lineWidth: 0 }), { mode: 0o600 });
    lab.model = buildClusterModel(validateConfig(readStackFile(file)));
    return lab.model;
}

export interface ChangeOutcome<T> {
    result: OperationResult;
    /** Seconds the `up` took. */
    seconds: number;
    /** Per pair of untouched pods, in the order given. */
    traffic: Traffic[];
    /** The caller's probe, sampled throughout the `up` (first sample before it starts, last after it ends). */
    samples: T[];
}

/**
 * Runs `up` while every pair pings (first pod → second pod's address) and `sample` runs every
 * `sampleMs`. Each pair is warmed up first: the first overlay packet to a new peer can be dropped.
 */
export async function upUnderTraffic<T = never>(
    lab: PulumiLab,
    pairs: Array<[LocalPod, LocalPod]>,
    sample?: () => Promise<T>,
    sampleMs = 250,
): Promise<ChangeOutcome<T>> {
    for (const [a, b] of pairs)
        if (!(await ping(lab.cluster, a, b.ip, 5))) throw new Error(`${a.ifaceId} does not reach ${b.ifaceId} (${b.ip}) before the change`);
    const pings = pairs.map(([a, b]) => continuousPing(lab.cluster, a, b.ip));
    const samples: T[] = [];
    let running = true;
    const sampler = (async () => {
        if (!sample) return;
        do {
            samples.push(await sample());
            await new Promise((r) => setTimeout(r, sampleMs));
        } while (running);
        samples.push(await sample());
    })();
    const started = Date.now();
    let result: OperationResult;
    try {
        result = await apply(lab.options);
    } finally {
        running = false;
    }
    const seconds = (Date.now() - started) / 1000;
    await sampler;
    // A short tail: what the last steps changed has reached the datapath.
    await new Promise((r) => setTimeout(r, 1000));
    const traffic = await Promise.all(pings.map((p) => p.stop()));
    return { result, seconds, traffic, samples };
}

/** Runs argv in a host and returns its stdout; throws naming the host and command on failure. */
export async function hostOut(cluster: LocalCluster, host: string, argv: string[]): Promise<string> {
    const r = await hostExec(cluster, host, argv);
    if (r.code !== 0) throw new Error(`${host}: ${argv.join(" ")}: exit ${r.code}: ${r.stderr.trim()}`);
    return r.stdout;
}

/** Non-empty lines, sorted. */
export const sortedLines = (text: string): string[] =>
    text
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
        .sort();

/**
 * What a node's NIC looks like from the host: addresses (IPv4 and IPv6) and links of the NIC and
 * its bridge, every route, the OVS bridges and ports, the bridge's tags and flows, the OVN bridge
 * mappings, the nftables ruleset and the boot entry's pieces. Two snapshots are equal when the
 * host's network is as it was.
 */
export async function nicSnapshot(cluster: LocalCluster, host: string, nic = "eth0", bridge = "breth0"): Promise<Record<string, string[]>> {
    const sh = (script: string) => hostOut(cluster, host, ["bash", "-c", script]).then(sortedLines);
    return {
        addresses: await sh(
            `for d in ${nic} ${bridge}; do ip -o addr show dev "$d" 2>/dev/null | awk -v d="$d" '{ print d, $3, $4 }'; done`,
        ),
        links: await sh(
            `for d in ${nic} ${bridge}; do ip -o link show dev "$d" 2>/dev/null | sed -E 's/^[0-9]+: //; s/ +link\\/ether/ ether/'; done`,
        ),
        routes: await sh("ip -4 route show table all; ip -6 route show table main"),
        ovsPorts: await sh('for b in $(ovs-vsctl list-br); do for p in $(ovs-vsctl list-ports "$b"); do echo "$b $p"; done; done'),
        bridgeIds: await sh(`ovs-vsctl --if-exists get Bridge ${bridge} external_ids other_config fail_mode datapath_type`),
        flows: await sh(`ovs-ofctl -O OpenFlow13 --no-stats dump-flows ${bridge} 2>/dev/null | sed -E 's/^ *//' || true`),
        bridgeMappings: await sh("ovs-vsctl --if-exists get Open_vSwitch . external_ids:ovn-bridge-mappings || true"),
        nftables: await sh("nft list ruleset"),
        pieces: await sh('for f in /etc/openvswitch/host-network.d/*; do [ -e "$f" ] && { echo "== $f"; cat "$f"; }; done; true'),
    };
}

/** A live lab: `hosts` hosts (Debian 12 unless `os` says otherwise), the stack applied, pod-a on node1 and pod-b on node2 (the pods' namespace is `namespace`). */
/** A Pulumi-mode lab applied once (`first`), with a pod on node1 and one on node2 that reach each other. */
export type LiveLab = PulumiLab & { pods: [LocalPod, LocalPod]; first: OperationResult; atFirstReturn: DataPathAtReturn };

/** What holds the moment an up returned: NB_Global's sequence numbers and one round of pings, no settling. */
export interface DataPathAtReturn {
    nbCfg: number;
    hvCfg: number;
    managementPorts: PingMatrix;
}

async function dataPathAtReturn(lab: PulumiLab): Promise<DataPathAtReturn> {
    const { cluster, model } = lab;
    const central = model.hosts.find((h) => h.isCentral)!.name;
    const managementPorts = await managementPortMatrix(cluster, model, 0);
    const [nbCfg, hvCfg] = (await hostOut(cluster, central, ["ovn-nbctl", "--bare", "--columns=nb_cfg,hv_cfg", "list", "NB_Global"]))
        .split("\n")
        .filter(Boolean)
        .map(Number);
    return { nbCfg, hvCfg, managementPorts };
}

export async function bringUpLiveLab(id: string, namespace: string, hosts = 3, os: HostOs = "debian12"): Promise<LiveLab> {
    const lab = await bringUpPulumiLab(id, hosts, os);
    try {
        const r = await apply(lab.options);
        if (!r.ok) throw new Error(`first apply: ${r.error}`);
        const atFirstReturn = await dataPathAtReturn(lab);
        const pods: [LocalPod, LocalPod] = [
            await startPod(lab.cluster, lab.model, "node1", namespace, "pod-a", 10),
            await startPod(lab.cluster, lab.model, "node2", namespace, "pod-b", 11),
        ];
        await overlayReady(lab, pods);
        return Object.assign(lab, { pods, first: r, atFirstReturn });
    } catch (e) {
        await lab.close();
        throw e;
    }
}

/**
 * Returns once the pods reach each other both ways: every chassis has applied the current
 * Northbound, then a few pings a pair, bounded. On a loaded machine a chassis may carry nothing to
 * a new pod for some seconds after the apply (localcluster/overlayReadiness), and a test's first
 * probe must not meet that.
 */
async function overlayReady(lab: PulumiLab, pods: [LocalPod, LocalPod]): Promise<void> {
    const caughtUp = await awaitChassisCaughtUp(lab.cluster, lab.model);
    if (!caughtUp.ok) throw new Error(formatCaughtUp(caughtUp));
    for (const [a, b] of [
        [pods[0], pods[1]],
        [pods[1], pods[0]],
    ] as const)
        await pollUntil(async () => (await ping(lab.cluster, a, b.ip)) || undefined, {
            timeoutMs: 45_000,
            intervalMs: 500,
            what: `${a.ifaceId} to reach ${b.ifaceId} (${b.ip})`,
        });
}

/** Sets `encapType` in the stack and runs `up` while the lab's pods ping each other. */
export function changeEncapType(lab: PulumiLab & { pods: [LocalPod, LocalPod] }, encapType: string): Promise<ChangeOutcome<never>> {
    editStack(lab, (config) => (config[PROJECT_KEY("encapType")] = encapType));
    return upUnderTraffic(lab, [
        [lab.pods[0], lab.pods[1]],
        [lab.pods[1], lab.pods[0]],
    ]);
}

/** TCP from `pod` to the external namespace, one try, no retry: the source it saw (after SNAT), or the client's error. */
export function snatProbe(cluster: LocalCluster, pod: LocalPod): Promise<{ ok: boolean; seenSource?: string; error?: string }> {
    return tcpExchange(cluster, { external: true }, cluster.external.ip, { pod }, CHECK_PORT, 1);
}

/** The source address the external namespace sees for TCP from `pod` (after SNAT): one try, no retry. */
export async function snatSeen(cluster: LocalCluster, pod: LocalPod): Promise<string | undefined> {
    return (await snatProbe(cluster, pod)).seenSource;
}
