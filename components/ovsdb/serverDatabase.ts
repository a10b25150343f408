// What an ovsdb-server says of one of its databases in its `_Server` database (ovsdb-server(5)):
// whether it is clustered, connected to its cluster, and this server its leader. Clients of a
// raft cluster use it to find the member to write to. Pure: the query and reading its result.
import { select } from "./operations";

export const SERVER_DB = "_Server";

export interface ServerDatabase {
    model: string;
    connected: boolean;
    leader: boolean;
    /** Raft log index this server has seen (clustered only); 0 otherwise. */
    index: number;
}

/** One read-only operation on `_Server` for database `name`. */
export const serverDatabaseQuery = (name: string) =>
    [select("Database", [["name", "==", name]], ["model", "connected", "leader", "index"])] as const;

/** The first operation's rows as a ServerDatabase; undefined when the server does not hold `name`. */
export function readServerDatabase(results: readonly unknown[]): ServerDatabase | undefined {
    const rows = (results[0] as { rows?: Record<string, unknown>[] } | undefined)?.rows ?? [];
    const row = rows[0];
    if (!row) return undefined;
    // Optional columns arrive as OVSDB sets: ["set", []] when empty.
    const atom = (v: unknown) => (Array.isArray(v) && v[0] === "set" ? (v[1] as unknown[])[0] : v);
    return {
        model: String(row.model),
        connected: row.connected === true,
        leader: row.leader === true,
        index: Number(atom(row.index) ?? 0),
    };
}

/** A member a client may write to: the connected leader of a clustered database, or a standalone server. */
export const isWritable = (d: ServerDatabase | undefined): boolean =>
    d !== undefined && (d.model !== "clustered" || (d.connected && d.leader));
