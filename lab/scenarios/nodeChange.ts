// Adding, removing and renaming a node of a running Pulumi-mode local cluster, shared by the
// scenario tests (test/e2e/node*.test.ts) and their benchmark modules (bench/changes/). The lab:
// node1 (central and master, with a switch), node2 (the node that changes), node3 (the gateway),
// and for an addition node4, which the stack lists from the start; pods on node1 and node3 ping
// each other through every change, since nothing about node2 touches them.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ipaddr from "ipaddr.js";
import type { NodeConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { ping, startPod, stopPod, type LocalPod } from "../localcluster";
import { apply, type OperationResult } from "../offline/api";
import { editStack, hostOut, sortedLines, upUnderTraffic, type ChangeOutcome, type Traffic } from "./liveChange";
import { bringUpPulumiLab, type PulumiLab } from "./pulumiLab";

export const CHANGED = "node2";
const NODES_KEY = "ovn-kubernetes:nodes";
const NAMESPACE = "la";

export interface NodeLab extends PulumiLab {
    /** Pods on node1 and node3, the nodes no change here touches. */
    untouched: [LocalPod, LocalPod];
    /** The stack's node entries as first written, by name. */
    written: Record<string, NodeConfig>;
}

function readNodes(lab: PulumiLab): NodeConfig[] {
    let nodes: NodeConfig[] = [];
    editStack(lab, (c) => (nodes = c[NODES_KEY]));
    return nodes;
}

/** Edits the stack's node list (the operator's edit of the stack file) and returns the new model. */
export function editNodes(lab: PulumiLab, edit: (nodes: NodeConfig[]) => NodeConfig[]): PulumiLab["model"] {
    return editStack(lab, (c) => (c[NODES_KEY] = edit(c[NODES_KEY])));
}

/** Fails naming the operation's error. */
export function ok(r: OperationResult, what: string): OperationResult {
    assert.equal(r.ok, true, `${what}: ${r.error}`);
    return r;
}

/** A resource of the node's: named `ovn-<node>` or `ovn-<node>-…` (its script bundle, chassis, node network...). */
export const isNodeResource = (name: string, node: string) => name === `ovn-${node}` || name.startsWith(`ovn-${node}-`);

/**
 * The steps of an `up` that changed something: those of `kind` (create, delete) on the node's
 * resources, and every other as `<op> <name>`, sorted. A change of one node asserts the others
 * are just the guards' updates.
 */
export function nodeSteps(r: OperationResult, node: string, kind: "create" | "delete"): { mine: string[]; others: string[] } {
    const ops = r.ops.filter((o) => o.op !== "same");
    const mine = ops.filter((o) => o.op === kind && isNodeResource(o.name, node));
    return {
        mine: mine.map((o) => o.name),
        others: ops
            .filter((o) => !mine.includes(o))
            .map((o) => `${o.op} ${o.name}`)
            .sort(),
    };
}

/** The names of the resources in the lab stack's state (the offline engine's state file). */
export function stateNames(lab: PulumiLab): string[] {
    const file = path.join(lab.options.localDir!, "state", `${lab.options.stack}.json`);
    return (JSON.parse(fs.readFileSync(file, "utf8")) as { resources: { name: string }[] }).resources.map((r) => r.name);
}

/**
 * What a change of one node's presence also changes, none of it on a host or in NB: the two guards
 * learn the new lists, and the tunnel type check the new list of chassis it reads the SB for.
 */
export const BOOKKEEPING_UPDATES = ["update ovn-change-guard", "update ovn-destroy-guard", "update ovn-tunnel-type"];

/**
 * Brings up `hosts` hosts (3, or 4 for an addition), applies the stack without the nodes in
 * `without`, and starts the untouched pods.
 */
export async function nodeLab(id: string, hosts: 3 | 4, without: string[] = []): Promise<NodeLab> {
    const lab = await bringUpPulumiLab(id, hosts);
    try {
        const written = Object.fromEntries(readNodes(lab).map((n) => [n.name, n]));
        if (without.length > 0) editNodes(lab, (nodes) => nodes.filter((n) => !without.includes(n.name)));
        ok(await apply(lab.options), "first apply");
        const untouched: [LocalPod, LocalPod] = [
            await startPod(lab.cluster, lab.model, "node1", NAMESPACE, "pod-a", 10),
            await startPod(lab.cluster, lab.model, "node3", NAMESPACE, "pod-b", 11),
        ];
        return Object.assign(lab, { untouched, written });
    } catch (e) {
        await lab.close();
        throw e;
    }
}

/** Starts a pod on `node` (its port is `la_<pod>`) and returns it with how to remove it (the drain), whatever the stack says by then. */
export async function podOn(lab: PulumiLab, node: string, pod: string, index = 12): Promise<{ pod: LocalPod; remove(): Promise<void> }> {
    const model = lab.model;
    return {
        pod: await startPod(lab.cluster, model, node, NAMESPACE, pod, index),
        remove: () => stopPod(lab.cluster, model, node, NAMESPACE, pod),
    };
}

/**
 * Until `to` answers `from`, within a bound. The first probes between two pods set up their flows
 * in userspace OVS (upcalls to ovs-vswitchd); on a machine shared by several labs those can take
 * longer than a few one-second probes, which is no loss caused by a change.
 */
async function reachable(lab: PulumiLab, from: LocalPod, to: LocalPod, tries = 15): Promise<void> {
    for (let i = 0; i < tries; i++) if (await ping(lab.cluster, from, to.ip, 3)) return;
    throw new Error(`${from.ifaceId} does not reach ${to.ifaceId} (${to.ip}) within ${tries} tries`);
}

/** `up` while the untouched pods ping each other both ways. */
export async function upWithTraffic(lab: NodeLab): Promise<ChangeOutcome<never>> {
    const [a, b] = lab.untouched;
    await reachable(lab, a, b);
    await reachable(lab, b, a);
    return upUnderTraffic(lab, [
        [a, b],
        [b, a],
    ]);
}

export const totals = (traffic: Traffic[]): Traffic =>
    traffic.reduce((a, t) => ({ sent: a.sent + t.sent, lost: a.lost + t.lost }), { sent: 0, lost: 0 });

/** Columns per table that say where a node's rows are and what they hold. */
const NB_COLUMNS: Record<string, string> = {
    Logical_Switch: "name,other_config",
    Logical_Switch_Port: "name,type,addresses,options",
    Logical_Router: "name,options",
    Logical_Router_Port: "name,mac,networks",
    Logical_Router_Static_Route: "ip_prefix,nexthop,policy",
    NAT: "type,external_ip,logical_ip",
};
const SB_COLUMNS: Record<string, string> = {
    Chassis: "name,hostname",
    Encap: "chassis_name,type,ip",
    Port_Binding: "logical_port,type,chassis",
};

export interface OvnRows {
    nb: Record<string, string[]>;
    sb: Record<string, string[]>;
}

/** Every row of the tables above on the central, one sorted CSV line per row. */
export async function ovnRows(lab: PulumiLab): Promise<OvnRows> {
    const read = async (ctl: string, columns: Record<string, string>) => {
        const out: Record<string, string[]> = {};
        for (const [table, cols] of Object.entries(columns))
            out[table] = sortedLines(
                await hostOut(lab.cluster, "node1", [
                    ctl,
                    "--format=csv",
                    "--data=bare",
                    "--no-headings",
                    `--columns=${cols}`,
                    "list",
                    table,
                ]),
            );
        return out;
    };
    return { nb: await read("ovn-nbctl", NB_COLUMNS), sb: await read("ovn-sbctl", SB_COLUMNS) };
}

/** The SB chassis of a host: its name (system-id) and UUID, or undefined. */
export async function chassisOf(lab: PulumiLab, host: string): Promise<{ name: string; uuid: string } | undefined> {
    const out = await hostOut(lab.cluster, "node1", [
        "ovn-sbctl",
        "--format=csv",
        "--data=bare",
        "--no-headings",
        "--columns=name,_uuid",
        "find",
        "Chassis",
        `hostname=${host}`,
    ]);
    const [name, uuid] = out.trim().split(",");
    return name ? { name, uuid } : undefined;
}

/**
 * Whether a row line mentions a node: its name, its host's address, its chassis (name or UUID), or
 * an address inside its subnet (its router and management ports, its pods). A network wider than
 * the subnet (the cluster subnet in a NAT or route) is not the node's.
 */
export function mentionsNode(
    lab: PulumiLab,
    node: string,
    subnet: string,
    chassis?: { name: string; uuid: string },
): (line: string) => boolean {
    const hostIp = lab.cluster.hosts.find((h) => h.name === node)!.ip;
    const [net, bits] = ipaddr.parseCIDR(subnet);
    const words = [node, ...(chassis ? [chassis.name, chassis.uuid] : [])];
    const inSubnet = (token: string) => {
        const [address, length] = token.split("/");
        if (length !== undefined && Number(length) < bits) return false;
        return ipaddr.isValid(address) && ipaddr.parse(address).kind() === net.kind() && ipaddr.parse(address).match(net, bits);
    };
    return (line) =>
        words.some((w) => line.includes(w)) ||
        (line.match(/\d+\.\d+\.\d+\.\d+(\/\d+)?/g) ?? []).some((t) => t.split("/")[0] === hostIp || inSubnet(t));
}

/** The rows that do not mention the node, and those that do. */
export function splitRows(rows: OvnRows, mentions: (line: string) => boolean): { untouched: OvnRows; mentioning: OvnRows } {
    const part = (db: Record<string, string[]>, want: boolean) =>
        Object.fromEntries(Object.entries(db).map(([t, lines]) => [t, lines.filter((l) => mentions(l) === want)]));
    return {
        untouched: { nb: part(rows.nb, false), sb: part(rows.sb, false) },
        mentioning: { nb: part(rows.nb, true), sb: part(rows.sb, true) },
    };
}

/** What the project leaves on a node's host: br-int ports bound to logical ports, its management port, ovn-controller, OVN settings, boot pieces. */
export async function nodeHostState(lab: PulumiLab, node: string, mgmtInterface: string) {
    const sh = (script: string) => hostOut(lab.cluster, node, ["bash", "-c", script]).then(sortedLines);
    return {
        boundPorts: await sh(
            "ovs-vsctl --columns=name,external_ids --format=csv --data=bare --no-headings list Interface | grep iface-id || true",
        ),
        mgmtLink: await sh(`ip -o link show dev ${mgmtInterface} 2>/dev/null | cut -d: -f2 || true`),
        mgmtOvsPort: await sh(`ovs-vsctl --if-exists list-ports br-int | grep -Fx ${mgmtInterface} || true`),
        controller: await sh("ovn-appctl -t ovn-controller version >/dev/null 2>&1 && echo running || true"),
        ovnSettings: await sh(
            "ovs-vsctl --if-exists get Open_vSwitch . external_ids | tr ',' '\\n' | grep -E 'ovn-remote|ovn-encap' || true",
        ),
        pieces: await sh("ls -1 /etc/openvswitch/host-network.d 2>/dev/null || true"),
    };
}
