// The inputs of a NorthboundExpectation: checked (every failure with its property path, all at
// once) and normalized (connection as every NB resource has it, cells canonical, settle with its
// defaults), so that `diff` and the comparison with NB are plain equality.
import { checkCommon, checker, isUnknown, type Checker } from "../core/check";
import { KNOWN_VERSIONS, normalizeCommon, type NbConnection } from "../kinds/common";
import { parseColumnPath } from "./columns";
import { parseRowKey } from "../core/rowKeys";
import { canonicalCell, NO_KEY, NO_ROW, type Cell, type Cells } from "./cells";

export interface Settle {
    /** How long create/update wait for ovnkube to realise the rows (0: look once). */
    timeoutSeconds: number;
    /** How often NB is read again meanwhile. */
    intervalSeconds: number;
}

/** ovnkube realises a node's rows within seconds of its start; the rest is room for pulling its image. */
export const DEFAULT_SETTLE: Settle = { timeoutSeconds: 180, intervalSeconds: 2 };
const SETTLE_LIMITS: Record<keyof Settle, { min: number; max: number }> = {
    timeoutSeconds: { min: 0, max: 3600 },
    intervalSeconds: { min: 0.05, max: 300 },
};

export interface ExpectationInputs {
    nb: NbConnection;
    /** What the rows belong to, e.g. `node/node2`, `gateway/node2`, `cluster`: the resource id and the first words of messages. */
    subject: string;
    /** Row key → column path → expected cell. */
    rows: Cells;
    settle: Settle;
}

const SUBJECT = /^[A-Za-z0-9_.-]{1,100}(?:\/[A-Za-z0-9_.-]{1,100}){0,3}$/;
const VALUE_MAX = 4096;

/** The property path of a row or cell as the engine prints it: rows["<row>"]["<column>"]. */
export const rowPath = (row: string, column?: string) =>
    `rows[${JSON.stringify(row)}]${column === undefined ? "" : `[${JSON.stringify(column)}]`}`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCell = (v: unknown): v is Cell => typeof v === "string" || (Array.isArray(v) && v.every((x) => typeof x === "string"));

function normalizeRows(raw: unknown): unknown {
    if (!isObject(raw)) return raw;
    const out: Record<string, unknown> = {};
    for (const [row, columns] of Object.entries(raw)) {
        if (!isObject(columns)) out[row] = columns;
        else out[row] = Object.fromEntries(Object.entries(columns).map(([c, v]) => [c, isCell(v) ? canonicalCell(v) : v]));
    }
    return out;
}

function normalizeSettle(raw: unknown): unknown {
    if (isUnknown(raw) || (raw !== undefined && !isObject(raw))) return raw;
    return { ...DEFAULT_SETTLE, ...(isObject(raw) ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)) : {}) };
}

/** Inputs (or recorded outputs, whose `rows` are observed) in normalized form; tolerates unknown values. */
export function normalizeExpectation(raw: Record<string, any>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const { nb } = normalizeCommon(raw);
    if (nb !== undefined) out.nb = nb;
    if (raw.subject !== undefined) out.subject = raw.subject;
    if (raw.rows !== undefined) out.rows = normalizeRows(raw.rows);
    out.settle = normalizeSettle(raw.settle);
    return out;
}

/** The connection exactly as every NB resource checks it; an expectation has no owner or version. */
function checkConnection(c: Checker, inputs: Record<string, unknown>): void {
    if (c.present("nb") === undefined) return;
    const all = checker(inputs);
    checkCommon(all, inputs, KNOWN_VERSIONS);
    for (const f of all.failures) if (f.property.startsWith("nb.")) c.fail(f.property, f.reason);
}

function checkValue(c: Checker, path: string, value: unknown, isMapKey: boolean): void {
    if (isUnknown(value)) return;
    if (!isCell(value)) return c.fail(path, `must be a string or a list of strings (a set), got ${JSON.stringify(value)}`);
    for (const text of typeof value === "string" ? [value] : value) {
        if (isUnknown(text)) continue;
        if (text.length > VALUE_MAX || /[\u0000-\u001f\u007f]/.test(text))
            return c.fail(path, `values must be at most ${VALUE_MAX} characters without control characters`);
        if (text === NO_KEY && !isMapKey)
            return c.fail(path, `${JSON.stringify(NO_KEY)} (the key is absent) only applies to a map key such as "options:chassis"`);
        if ((text === NO_ROW || text === NO_KEY) && typeof value !== "string")
            return c.fail(path, `${JSON.stringify(text)} stands alone, not inside a list`);
    }
}

function checkRows(c: Checker, rows: unknown): void {
    if (rows === undefined || isUnknown(rows)) return;
    if (!isObject(rows) || Object.keys(rows).length === 0)
        return c.fail("rows", 'must map at least one row key (e.g. "Logical_Switch node2") to its expected columns');
    for (const [row, columns] of Object.entries(rows)) {
        let table;
        try {
            table = parseRowKey(row).table;
        } catch (err) {
            c.fail(rowPath(row), (err as Error).message);
            continue;
        }
        if (isUnknown(columns)) continue;
        if (!isObject(columns) || Object.keys(columns).length === 0) {
            c.fail(rowPath(row), 'must map at least one column path (e.g. "name", "other_config:subnet") to its expected value');
            continue;
        }
        for (const [column, value] of Object.entries(columns)) {
            try {
                checkValue(c, rowPath(row, column), value, parseColumnPath(table, column).key !== undefined);
            } catch (err) {
                c.fail(rowPath(row, column), (err as Error).message);
            }
        }
        const absent = Object.values(columns).filter((v) => v === NO_ROW).length;
        if (absent > 0 && absent < Object.keys(columns).length)
            c.fail(
                rowPath(row),
                `expects the row absent (${JSON.stringify(NO_ROW)}) in some columns and present in others: use ${JSON.stringify(NO_ROW)} for every column or for none`,
            );
    }
}

function checkSettle(c: Checker, settle: unknown): void {
    if (isUnknown(settle)) return;
    if (!isObject(settle)) return c.fail("settle", "must be { timeoutSeconds, intervalSeconds }");
    for (const name of Object.keys(settle))
        if (!(name in SETTLE_LIMITS)) c.fail(`settle.${name}`, "is not a setting: use timeoutSeconds and intervalSeconds");
    for (const [name, { min, max }] of Object.entries(SETTLE_LIMITS)) {
        const v = settle[name];
        if (isUnknown(v)) continue;
        if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max)
            c.fail(`settle.${name}`, `must be a number of seconds from ${min} to ${max}, got ${JSON.stringify(v)}`);
    }
}

export function checkExpectation(news: Record<string, any>): {
    inputs: Record<string, unknown>;
    failures: { property: string; reason: string }[];
} {
    const inputs = normalizeExpectation(news);
    const c = checker(inputs);
    checkConnection(c, inputs);
    const subject = c.present("subject");
    if (subject !== undefined && subject !== null && (typeof subject !== "string" || !SUBJECT.test(subject))) {
        c.fail(
            "subject",
            `must be what the rows belong to, e.g. "node/node2", "gateway/node2" or "cluster" (A-Z a-z 0-9 _ . - and /), got ${JSON.stringify(subject)}`,
        );
    }
    if (c.present("rows") !== undefined) checkRows(c, inputs.rows);
    checkSettle(c, inputs.settle);
    return { inputs, failures: c.failures };
}
