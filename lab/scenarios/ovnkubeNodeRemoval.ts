// A node leaving a running ovnkube-mode cluster, the way an operator removes one, under traffic
// between pods on two nodes it does not touch: the stack without the node is refused at preview
// while the node is still a Kubernetes Node; the operator drains it, stops its kubelet (with its
// containers) and deletes the Node; ovnkube lets it go; then one `up` removes the node's side.
// Returns what the test asserts: both outcomes, the probes, and every row still naming the node
// or its chassis in each database that stays (central or zone, NB and SB).
import assert from "node:assert/strict";
import { ovnkubeNodeRows } from "@ovn-kubernetes-as-code/cluster/guard";
import type { ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { hostExec, type LocalPod } from "../localcluster";
import { stopNodeKubelet } from "../localcluster/kubernetes";
import { podRef, removeDemoWorkloads, startDemoPod, type KubePod } from "../localcluster/kubeWorkloads";
import { pollUntil } from "../kubeclient";
import { apply, preview, type OperationResult } from "../offline/api";
import { continuousPing, type Traffic } from "./liveChange";
import type { OvnkubeLab } from "./ovnkubeLab";

export interface NodeRemoval {
    /** The preview of the stack without the node, while it was still a Kubernetes Node. */
    refused: OperationResult;
    /** The `up` once the Node was gone, and its wall time in seconds. */
    done: OperationResult;
    upSeconds: number;
    /** Probes both ways between the pods on the untouched nodes, through that `up`. */
    traffic: Traffic[];
    /** `<host> <db> <table>: <row>` for every row naming the node in a database that stays. */
    left: string[];
}

/** The hosts whose databases stay: the first central, or every zone but the node's. */
function stayingDatabases(model: ClusterModel, node: string): string[] {
    const central = model.hosts.find((h) => h.isCentral);
    return central ? [central.name] : model.hosts.filter((h) => h.zone && h.name !== node).map((h) => h.name);
}

/** The rows of a database (csv dump) that name any of `needles`, as `<table>: <row>`. */
async function rowsNaming(lab: OvnkubeLab, host: string, db: "nb" | "sb", needles: readonly RegExp[]): Promise<string[]> {
    const [socket, name] = db === "nb" ? ["ovnnb_db.sock", "OVN_Northbound"] : ["ovnsb_db.sock", "OVN_Southbound"];
    const r = await hostExec(lab.cluster, host, ["ovsdb-client", "--timeout=20", "-f", "csv", "dump", `unix:/var/run/ovn/${socket}`, name]);
    assert.equal(r.code, 0, `${host}: dump of ${name}: ${r.stderr}`);
    let table = "";
    const found: string[] = [];
    for (const line of r.stdout.split("\n")) {
        const heading = /^(\w+) table$/.exec(line);
        if (heading) table = heading[1];
        else if (needles.some((n) => n.test(line))) found.push(`${host} ${db} ${table}: ${line}`);
    }
    return found;
}

/**
 * What names the node in OVN's databases: its name (switch, routers, ports, chassis hostname) and
 * its chassis id (Chassis, Encap, Port_Binding). Not its address: the host stays on the LAN, where
 * the other gateway routers may still know its MAC (MAC_Binding), as they know any neighbour's.
 */
async function needlesOf(lab: OvnkubeLab, node: string): Promise<RegExp[]> {
    const systemId = (await hostExec(lab.cluster, node, ["ovs-vsctl", "get", "Open_vSwitch", ".", "external_ids:system-id"])).stdout
        .trim()
        .replace(/"/g, "");
    assert.ok(systemId, `${node} has no system-id`);
    return [new RegExp(`\\b${node}\\b|_${node}\\b|-${node}\\b`), new RegExp(systemId)];
}

/** Waits, bounded, until `host`'s NB holds none of the rows by which ovnkube keeps `node` (../../components/guard/blockers). */
async function waitOvnkubeLetGo(lab: OvnkubeLab, host: string, node: string): Promise<void> {
    const held = async () => {
        const rows: string[] = [];
        for (const { table, name } of ovnkubeNodeRows(node)) {
            const r = await hostExec(lab.cluster, host, [
                "ovn-nbctl",
                "--no-leader-only",
                "--timeout=20",
                "--bare",
                "--columns=name",
                "find",
                table,
                `name=${name}`,
            ]);
            assert.equal(r.code, 0, `${host}: ${r.stderr}`);
            if (r.stdout.trim()) rows.push(`${table} ${name}`);
        }
        return rows;
    };
    await pollUntil(async () => ((await held()).length === 0 ? true : undefined), {
        timeoutMs: 60_000,
        intervalMs: 1000,
        what: `ovnkube to let ${node} go in ${host}'s Northbound`,
    });
}

/**
 * Removes `node` (the last host) from the running cluster as described above. `restack` writes the
 * stack without it. `untouched` are two other nodes that carry the probing pods.
 */
export async function removeOvnkubeNode(
    lab: OvnkubeLab,
    model: ClusterModel,
    node: string,
    untouched: [string, string],
    restack: () => void,
): Promise<NodeRemoval> {
    const stay = await Promise.all(
        untouched.map((n, i) => startDemoPod(lab.admin, lab.cluster, { name: `stay-${i}`, node: n, command: ["sleep", "infinity"] })),
    );
    const leaving = await startDemoPod(lab.admin, lab.cluster, { name: "leaving", node, command: ["sleep", "infinity"] });
    const needles = await needlesOf(lab, node);
    restack();
    const refused = await preview(lab.offline);

    // The operator's steps: drain, stop the kubelet and its containers, delete the Node.
    await removeDemoWorkloads(lab.admin, lab.cluster, [leaving], []);
    await stopNodeKubelet(lab.cluster, lab.kubernetes, node);
    await lab.admin.delete({ apiVersion: "v1", kind: "Node", name: node });
    // ovnkube lets the node go: the rows the guard looks for leave every NB that stays.
    for (const host of stayingDatabases(model, node)) await waitOvnkubeLetGo(lab, host, node);

    const asLocal = (p: KubePod): LocalPod => ({ ...podRef(p), ifaceId: p.name }) as LocalPod;
    const probes = [continuousPing(lab.cluster, asLocal(stay[0]), stay[1].ip), continuousPing(lab.cluster, asLocal(stay[1]), stay[0].ip)];
    const started = Date.now();
    const done = await apply(lab.offline);
    const upSeconds = (Date.now() - started) / 1000;
    const traffic = await Promise.all(probes.map((p) => p.stop()));

    const left: string[] = [];
    for (const host of stayingDatabases(model, node))
        for (const db of ["nb", "sb"] as const) left.push(...(await rowsNaming(lab, host, db, needles)));
    await removeDemoWorkloads(lab.admin, lab.cluster, stay, []);
    return { refused, done, upSeconds, traffic, left };
}
