// The Northbound database's own record of who wrote what. A standalone OVSDB file is a log: the
// schema, then one record per committed transaction, each `OVSDB JSON <length> <sha1>\n<json>\n`
// (length and SHA-1 cover the json and its newline), the json being {"<Table>": {"<row uuid>": {<columns written>} | null}, "_date": ms,
// "_comment"?: text}. A clustered (raft) member's file has `OVSDB CLUSTER` records: a header whose
// `prev_data` holds the schema, then raft entries {"term", "index", "data": [schema | null, <the
// same transaction json>]} among votes and commit indexes; a later term may rewrite an index. ovn-nbctl (what the project's central script runs) puts its command line
// in `_comment`, ovn-northd comments "ovn-northd", libovsdb (ovnkube) comments nothing: so every
// committed change can be attributed to its writer, with no hook in any of them.
//
// ovsdb-server rewrites (compacts) the file only after 10 minutes and once it has grown past
// 10 MB (ovsdb/storage.c, ovsdb/log.c), far beyond an end-to-end run; readers still check that
// what they read extends what they read before (see `extendsLog`), so a compaction would fail loudly.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { enterableHost } from "../../../lab/localcluster/exec";
import { inHost } from "../../../lab/localcluster/hostfs";
import type { LocalCluster } from "../../../lab/localcluster";

export interface NbTransaction {
    /** Position in the log (0 is the schema). */
    index: number;
    date: number;
    comment?: string;
    /**
     * table → row uuid → column → the map keys written (map columns: the record is a diff, so
     * only the keys that changed), or null for a whole column; null for a row that was deleted.
     */
    rows: Record<string, Record<string, Record<string, string[] | null> | null>>;
    sha1: string;
}

export interface NbLog {
    schema: { name: string; version: string };
    transactions: NbTransaction[];
}

const HEADER = /^OVSDB (JSON|CLUSTER) (\d+) ([0-9a-f]{40})$/;

/** OVSDB's JSON for a map is ["map", [[key, value], ...]] (RFC 7047 §5.1). */
function writtenColumns(columns: Record<string, unknown>): Record<string, string[] | null> {
    const out: Record<string, string[] | null> = {};
    for (const [column, value] of Object.entries(columns)) {
        const isMap = Array.isArray(value) && value[0] === "map" && Array.isArray(value[1]);
        out[column] = isMap ? (value[1] as Array<[unknown, unknown]>).map(([key]) => String(key)) : null;
    }
    return out;
}

type LogRecord = { json: Record<string, unknown>; sha1: string };

/** The records of an OVSDB file, each checked against its length and SHA-1, and whether it is clustered. Pure. */
function logRecords(data: Buffer): { clustered: boolean; records: LogRecord[] } {
    const records: LogRecord[] = [];
    let clustered = false;
    let at = 0;
    while (at < data.length) {
        const eol = data.indexOf(0x0a, at);
        if (eol < 0) throw new Error(`OVSDB log: record header at byte ${at} has no end`);
        const header = HEADER.exec(data.subarray(at, eol).toString("latin1"));
        if (!header)
            throw new Error(
                `OVSDB log: bad record header at byte ${at}: ${JSON.stringify(data.subarray(at, Math.min(eol, at + 80)).toString("latin1"))}`,
            );
        clustered = header[1] === "CLUSTER";
        const body = data.subarray(eol + 1, eol + 1 + Number(header[2]));
        // A record still being written is incomplete: stop before it, as ovsdb-server's reader does.
        if (body.length < Number(header[2])) break;
        const sha1 = createHash("sha1").update(body).digest("hex");
        if (sha1 !== header[3])
            throw new Error(`OVSDB log: record ${records.length} at byte ${at} fails its SHA-1 (${sha1} ≠ ${header[3]})`);
        records.push({ json: JSON.parse(body.toString("utf8")) as Record<string, unknown>, sha1 });
        at = eol + 1 + body.length;
    }
    return { clustered, records };
}

function transactionOf(index: number, json: Record<string, unknown>, sha1: string): NbTransaction {
    const rows: NbTransaction["rows"] = {};
    for (const [table, changes] of Object.entries(json)) {
        if (table.startsWith("_")) continue;
        rows[table] = Object.fromEntries(
            Object.entries(changes as Record<string, Record<string, unknown> | null>).map(([uuid, columns]) => [
                uuid,
                columns === null ? null : writtenColumns(columns),
            ]),
        );
    }
    return { index, date: Number(json._date), comment: typeof json._comment === "string" ? json._comment : undefined, rows, sha1 };
}

/** The transactions of a raft member's log in index order, each index as its latest term wrote it. Pure. */
function raftTransactions(records: readonly LogRecord[]): NbTransaction[] {
    const byIndex = new Map<number, NbTransaction>();
    for (const { json, sha1 } of records) {
        const data = json.data as [unknown, Record<string, unknown> | null] | undefined;
        if (typeof json.index === "number" && Array.isArray(data) && data[1])
            byIndex.set(json.index, transactionOf(json.index, data[1], sha1));
    }
    return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** Parses a standalone or clustered OVSDB file, checking every record's length and SHA-1. Pure. */
export function parseNbLog(data: Buffer): NbLog {
    const { clustered, records } = logRecords(data);
    const [first, ...rest] = records;
    const schema = (clustered ? (first?.json.prev_data as unknown[] | undefined)?.[0] : first?.json) as
        { name?: unknown; version?: unknown } | undefined;
    if (!schema || typeof schema.name !== "string") throw new Error("OVSDB log: the first record holds no schema");
    return {
        schema: { name: schema.name, version: String(schema.version) },
        transactions: clustered ? raftTransactions(rest) : rest.map(({ json, sha1 }, i) => transactionOf(i + 1, json, sha1)),
    };
}

/** True when `later` holds every transaction of `earlier`, unchanged and in order (no compaction in between). */
export function extendsLog(earlier: NbLog, later: NbLog): boolean {
    return (
        earlier.transactions.length <= later.transactions.length &&
        earlier.transactions.every((t, i) => later.transactions[i].sha1 === t.sha1)
    );
}

/**
 * Who committed a transaction, from its comment. ovn-nbctl comments its command line: the
 * project's central script runs only the commands below; any other (an operator's `ls-del`) is
 * someone else. The project's own NB providers (Pulumi mode only) comment `pulumi <owner> <group>`;
 * ovn-northd comments its name; libovsdb comments nothing, and ovnkube is the only libovsdb
 * client of this NB.
 */
export type NbWriter = "project" | "ovn-northd" | "ovnkube" | "other";

/**
 * The ovn-nbctl commands of the central and zone scripts (components/hosts/scripts/bash/
 * central-create.sh, zone-create.sh: `set NB_Global`), and ovn-ctl's `init` of a new database.
 */
const HOST_SCRIPT_COMMANDS = ["init", "set-connection", "set-ssl", "del-ssl", "set"];
const NBCTL_COMMENT = /^ovn-nbctl: ovn-nbctl((?: -\S+)*) (\S+)/;

export function writerOf(t: NbTransaction): NbWriter {
    if (t.comment === undefined) return "ovnkube";
    if (t.comment === "ovn-northd") return "ovn-northd";
    if (t.comment.startsWith("pulumi ")) return "project";
    const nbctl = NBCTL_COMMENT.exec(t.comment);
    return nbctl && HOST_SCRIPT_COMMANDS.includes(nbctl[2]) ? "project" : "other";
}

/** The unit of ownership: a row's existence (`(row)`), a column, or one key of a map column. */
export interface NbCell {
    table: string;
    uuid: string;
    /** `(row)`, `<column>` or `<column>:<key>`. */
    cell: string;
}

/** Every cell a transaction wrote; a row seen for the first time counts as its `(row)` (created). Pure. */
function cellsOf(t: NbTransaction, seen: Set<string>): NbCell[] {
    const out: NbCell[] = [];
    for (const [table, rows] of Object.entries(t.rows)) {
        for (const [uuid, columns] of Object.entries(rows)) {
            if (columns === null || !seen.has(uuid)) out.push({ table, uuid, cell: "(row)" });
            seen.add(uuid);
            for (const [column, keys] of Object.entries(columns ?? {})) {
                if (keys === null) out.push({ table, uuid, cell: column });
                else for (const key of keys) out.push({ table, uuid, cell: `${column}:${key}` });
            }
        }
    }
    return out;
}

export interface WriterReport {
    /** Transactions per writer. */
    transactions: Record<NbWriter, number>;
    /** Comments of the transactions of other writers. */
    others: string[];
    /** Cells written by more than one writer, with who wrote them. */
    shared: Array<NbCell & { writers: NbWriter[] }>;
    /** `<table>.<cell>` (row uuids dropped) → the writers of such cells, sorted. */
    byColumn: Record<string, NbWriter[]>;
}

/** Attributes every cell written in `transactions` to its writers. Pure. */
export function writerReport(transactions: readonly NbTransaction[]): WriterReport {
    const counts: Record<NbWriter, number> = { project: 0, "ovn-northd": 0, ovnkube: 0, other: 0 };
    const others: string[] = [];
    const writers = new Map<string, { cell: NbCell; writers: Set<NbWriter> }>();
    const seen = new Set<string>();
    for (const t of transactions) {
        const writer = writerOf(t);
        counts[writer]++;
        if (writer === "other") others.push(t.comment ?? "");
        for (const cell of cellsOf(t, seen)) {
            const key = `${cell.table} ${cell.uuid} ${cell.cell}`;
            const entry = writers.get(key) ?? { cell, writers: new Set<NbWriter>() };
            entry.writers.add(writer);
            writers.set(key, entry);
        }
    }
    const byColumn: Record<string, Set<NbWriter>> = {};
    for (const { cell, writers: w } of writers.values())
        for (const writer of w) (byColumn[`${cell.table}.${cell.cell}`] ??= new Set()).add(writer);
    return {
        transactions: counts,
        others,
        shared: [...writers.values()].filter((e) => e.writers.size > 1).map((e) => ({ ...e.cell, writers: [...e.writers].sort() })),
        byColumn: Object.fromEntries(
            Object.entries(byColumn)
                .sort()
                .map(([k, v]) => [k, [...v].sort()]),
        ),
    };
}

/** Where ovn-ctl keeps the standalone Northbound database on Debian (and the central script leaves it). */
export const NB_DB_FILE = "/var/lib/ovn/ovnnb_db.db";

/** Reads the Northbound log of a central or an interconnect zone from this machine, through the host's root. */
export function readNbLog(cluster: LocalCluster, host: string, file = NB_DB_FILE): NbLog {
    return parseNbLog(fs.readFileSync(inHost(enterableHost(cluster, host).holderPid, file)));
}

// ovn-northd reports state back into NB, in the columns OVN gives it (ovn-nb(5)): a port's `up`
// once its chassis claimed it, a gateway port's hosting chassis, and its own NB_Global options.
// These are northd's alone (no cell is shared, asserted below); listed so any other write fails.
const NORTHD_CELLS = [
    "Logical_Switch_Port.up",
    "Logical_Router_Port.status:hosting-chassis",
    "NB_Global.options:mac_prefix",
    "NB_Global.options:max_tunid",
    "NB_Global.options:svc_monitor_mac",
    "NB_Global.options:svc_monitor_mac_dst",
    "NB_Global.options:northd_internal_version",
    "NB_Global.nb_cfg_timestamp",
    "NB_Global.sb_cfg",
    "NB_Global.sb_cfg_timestamp",
    "NB_Global.hv_cfg",
    "NB_Global.hv_cfg_timestamp",
];
/** The project writes what the zone's database host sets up, as upstream's local-nb-ovsdb does: the zone's name. */
const PROJECT_CELLS = ["NB_Global.(row)", "NB_Global.name", "NB_Global.options:name", "NB_Global.options:northd-backoff-interval-ms"];

/**
 * An interconnect zone's NB (its database `file` on the host) had one writer per cell since it was
 * created: the project (its zone's cells), ovn-northd (its own) and ovnkube, and nobody else.
 */
export function assertZoneWriters(cluster: LocalCluster, zone: string, file = NB_DB_FILE): void {
    const log = readNbLog(cluster, zone, file);
    const report = writerReport(log.transactions);
    console.log(
        `${zone} NB log (${log.schema.name} ${log.schema.version}): ${Object.entries(report.transactions)
            .map(([writer, n]) => `${writer} ${n}`)
            .join(", ")} transactions`,
    );
    assert.deepEqual(report.others, [], `${zone}: transactions of writers other than the project, ovn-northd and ovnkube`);
    assert.deepEqual(report.shared, [], `${zone}: cells written by more than one writer`);
    assert.ok(report.transactions.project > 0 && report.transactions.ovnkube > 0, zone);
    const cellsOf = (writer: NbWriter) =>
        Object.entries(report.byColumn)
            .filter(([, w]) => w.includes(writer))
            .map(([c]) => c);
    for (const cell of cellsOf("project")) assert.ok(PROJECT_CELLS.includes(cell), `${zone}: the project wrote ${cell}`);
    for (const cell of cellsOf("ovn-northd")) assert.ok(NORTHD_CELLS.includes(cell), `${zone}: ovn-northd wrote ${cell}`);
}
