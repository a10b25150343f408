// A raft member's own account of its cluster, from `ovs-appctl cluster/status <db>` of its
// ovsdb-server (ovsdb-server(1)). Pure: the text in, the fields operators look at out.

export interface ClusterStatus {
    /** This server's id (the first 4 hex digits, as the text abbreviates it). */
    serverId: string;
    /** leader, follower or candidate. */
    role: string;
    term: number;
    /** "cluster member", "joining cluster", "left cluster", … */
    status: string;
    /** The leader's abbreviated id, "self", or "unknown". */
    leader: string;
    /** Raft connections to the other members as listed: `->id` outgoing, `<-id` incoming. */
    connections: string;
    /** Members as this server lists them: abbreviated id, address, and whether it is this server. */
    servers: { id: string; address: string; self: boolean }[];
}

const field = (text: string, name: string) => new RegExp(`^${name}: (.*)$`, "m").exec(text)?.[1].trim() ?? "";

export function parseClusterStatus(text: string): ClusterStatus {
    const servers: ClusterStatus["servers"] = [];
    const list = text.slice(text.indexOf("\nServers:") + 1);
    // e.g. "    4d3a (4d3a at tcp:172.31.95.11:6643) (self) next_index=3 match_index=9"
    for (const m of list.matchAll(/^\s+([0-9a-f]{4}) \(\1 at (\S+)\)( \(self\))?/gm))
        servers.push({ id: m[1], address: m[2], self: m[3] !== undefined });
    return {
        serverId: field(text, "Server ID").split(" ")[0],
        role: field(text, "Role"),
        term: Number(field(text, "Term")),
        status: field(text, "Status"),
        leader: field(text, "Leader"),
        connections: field(text, "Connections"),
        servers,
    };
}
