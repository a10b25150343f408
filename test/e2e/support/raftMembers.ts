// The central members of a lab as an operator sees them and as a crash treats them: each member's
// raft view, the leader of a database, and a member's daemons killed and started again.
import assert from "node:assert/strict";
import { centralMemberScript } from "../../../components/hosts/scripts/centralScript";
import type { ClusterModel } from "../../../components/model/types";
import { hostExec, type LocalCluster } from "../../../lab/localcluster";
import { DBS, raftStatus } from "./raftStatus";

export type Db = keyof typeof DBS;

export interface Centrals {
    cluster: LocalCluster;
    model: ClusterModel;
}

const centralHosts = (c: Centrals) => c.model.hosts.filter((h) => h.isCentral).map((h) => h.name);

async function sh(c: Centrals, host: string, script: string): Promise<string> {
    const r = await hostExec(c.cluster, host, ["bash", "-c", script]);
    assert.equal(r.code, 0, `${host}: ${script}: ${r.stderr}`);
    return r.stdout;
}

/** Every member's view of one database (undefined where its server does not answer). */
export async function clusterOf(c: Centrals, db: Db, hosts = centralHosts(c)) {
    return Promise.all(hosts.map(async (h) => ({ host: h, status: await raftStatus(c.cluster, h, db) })));
}

/** NB and SB each a raft cluster of every central, with one leader, as every member sees it. */
export async function assertRaftOfEveryCentral(c: Centrals): Promise<void> {
    const members = centralHosts(c).length;
    for (const db of ["nb", "sb"] as const) {
        const views = await clusterOf(c, db);
        assert.deepEqual(
            views.map((v) => v.status?.servers.length),
            views.map(() => members),
            `${db}: every member sees ${members} servers`,
        );
        assert.equal(views.filter((v) => v.status?.role === "leader").length, 1, `${db}: one leader`);
    }
}

/** The host whose member leads `db`, asked of the members given (all, by default). */
export async function leaderOf(c: Centrals, db: Db, hosts = centralHosts(c)): Promise<string> {
    const leaders = (await clusterOf(c, db, hosts)).filter((v) => v.status?.role === "leader").map((v) => v.host);
    assert.equal(leaders.length, 1, `${db} leaders among ${hosts}: ${leaders}`);
    return leaders[0];
}

/** Waits (bounded) until the members given have elected a leader of `db` among them. */
export async function electedAmong(c: Centrals, db: Db, hosts: string[]): Promise<string> {
    for (let i = 0; i < 60; i++) {
        const leader = (await clusterOf(c, db, hosts)).find((v) => v.status?.role === "leader");
        if (leader) return leader.host;
        await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`no ${db} leader among ${hosts} after 30 s`);
}

/**
 * Kills daemons of a host as a crash would: the --monitor parent that would restart it first,
 * then the daemon itself, both found by the daemon's pidfile; returns once they are reaped. PID 1 on this machine
 * reaps slowly, and ovn-ctl takes a zombie whose pidfile remains for a running daemon: a restart
 * right after the kill would start nothing and wait for a server that never comes.
 */
export async function killDaemons(c: Centrals, host: string, pidfiles: string[]): Promise<void> {
    const script = pidfiles
        .map((f) => `pid=$(cat /var/run/ovn/${f}); ppid=$(ps -o ppid= -p "$pid" | tr -d ' '); kill -9 "$ppid" "$pid"; gone+=" $ppid $pid"`)
        .join("; ");
    const reaped = `for i in $(seq 300); do left=; for p in $gone; do [[ -d /proc/$p ]] && left=y; done; [[ -z $left ]] && exit 0; sleep 0.1; done; echo "not reaped:$gone" >&2; exit 1`;
    await sh(c, host, `gone=; ${script}; ${reaped}`);
}

/** Runs the member's own create script again (what `up` runs when the member's command changes): it restarts what is down. */
export async function restartMember(c: Centrals, host: string): Promise<void> {
    await sh(c, host, centralMemberScript(c.model.central!, host).create);
}
