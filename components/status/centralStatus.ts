// The central's databases as their servers see themselves: for every central, each of NB and SB
// with its model (clustered or standalone), and for a raft member its role, term, status, leader
// and connections, read over SSH with `ovs-appctl cluster/status` on the member's own
// ovsdb-server. Pinned host keys are verified as on every other connection.
import type { ClusterModel } from "../model/types";
import { exec } from "../ssh/exec";
import { parseClusterStatus, type ClusterStatus } from "./clusterStatus";

export const STATUS_DBS = [
    ["nb", "OVN_Northbound"],
    ["sb", "OVN_Southbound"],
] as const;

export interface MemberDbStatus {
    host: string;
    db: string;
    /** clustered (with `raft`), standalone, or down (with `error`). */
    state: "clustered" | "standalone" | "down";
    raft?: ClusterStatus;
    error?: string;
}

/** One command per member: both databases' cluster/status, a marker line between them. */
const SEPARATOR = "----ovn-kubernetes-as-code----";
const command = STATUS_DBS.map(
    ([db, name]) =>
        `if ovs-appctl -t /var/run/ovn/ovn${db}_db.ctl version >/dev/null 2>&1; then ovs-appctl -t /var/run/ovn/ovn${db}_db.ctl cluster/status ${name} 2>&1 || echo standalone; else echo down; fi; echo ${SEPARATOR}`,
).join("; ");

export async function centralStatus(model: ClusterModel, privateKey: string): Promise<MemberDbStatus[]> {
    const centrals = model.hosts.filter((h) => h.isCentral);
    const per = await Promise.all(
        centrals.map(async (h): Promise<MemberDbStatus[]> => {
            try {
                const r = await exec(h.ssh, privateKey, command);
                const parts = r.stdout.split(`${SEPARATOR}\n`);
                return STATUS_DBS.map(([, name], i) => statusOf(h.name, name, parts[i] ?? ""));
            } catch (err) {
                return STATUS_DBS.map(([, name]) => ({ host: h.name, db: name, state: "down", error: (err as Error).message }));
            }
        }),
    );
    return per.flat();
}

function statusOf(host: string, db: string, text: string): MemberDbStatus {
    const t = text.trim();
    if (t === "down") return { host, db, state: "down", error: "its ovsdb-server does not answer" };
    if (/^Role:/m.test(t)) return { host, db, state: "clustered", raft: parseClusterStatus(t) };
    return { host, db, state: "standalone" };
}

/** One line per member and database, e.g. `node1  OVN_Northbound  leader    term 3  cluster member  3 servers  connections ->0a1b <-0a1b`. */
export function formatCentralStatus(rows: MemberDbStatus[]): string {
    const w = Math.max(4, ...rows.map((r) => r.host.length));
    return rows
        .map((r) => {
            const head = `${r.host.padEnd(w)}  ${r.db.padEnd(14)}`;
            if (!r.raft) return `${head}  ${r.state}${r.error ? ` (${r.error})` : ""}`;
            const s = r.raft;
            return `${head}  ${s.role.padEnd(9)} term ${String(s.term).padEnd(3)} ${s.status}, leader ${s.leader}, ${s.servers.length} servers, connections ${s.connections || "none"}`;
        })
        .join("\n");
}
