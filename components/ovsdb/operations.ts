// Typed builders for the operations of an OVSDB "transact" request (RFC 7047 section 5.2) and
// the result type each one produces, so `transact` can return a tuple typed per operation.
import { namedUuid, type Row, type Uuid, type Value } from "./encoding";

export type ConditionFunction = "<" | "<=" | "==" | "!=" | ">=" | ">" | "includes" | "excludes";
export type Condition = [column: string, fn: ConditionFunction, value: Value];
export type Mutator = "+=" | "-=" | "*=" | "/=" | "%=" | "insert" | "delete";
export type Mutation = [column: string, mutator: Mutator, value: Value];

export interface InsertOp {
    op: "insert";
    table: string;
    row: Row;
    "uuid-name"?: string;
}
export interface SelectOp {
    op: "select";
    table: string;
    where: Condition[];
    columns?: string[];
}
export interface UpdateOp {
    op: "update";
    table: string;
    where: Condition[];
    row: Row;
}
export interface MutateOp {
    op: "mutate";
    table: string;
    where: Condition[];
    mutations: Mutation[];
}
export interface DeleteOp {
    op: "delete";
    table: string;
    where: Condition[];
}
export interface WaitOp {
    op: "wait";
    table: string;
    where: Condition[];
    columns: string[];
    until: "==" | "!=";
    rows: Row[];
    /** Milliseconds; 0 makes the wait a pure precondition that fails at once ("timed out"). */
    timeout?: number;
}
export interface CommentOp {
    op: "comment";
    comment: string;
}
export type Operation = InsertOp | SelectOp | UpdateOp | MutateOp | DeleteOp | WaitOp | CommentOp;

export interface InsertResult {
    uuid: Uuid;
}
export interface SelectResult {
    rows: Row[];
}
/** update, mutate and delete report how many rows matched `where`. */
export interface CountResult {
    count: number;
}
export type EmptyResult = Record<string, never>;
export type OperationResult = InsertResult | SelectResult | CountResult | EmptyResult;

export type ResultOf<O> = O extends InsertOp
    ? InsertResult
    : O extends SelectOp
      ? SelectResult
      : O extends UpdateOp | MutateOp | DeleteOp
        ? CountResult
        : EmptyResult;
export type ResultsOf<T extends readonly Operation[]> = { -readonly [K in keyof T]: ResultOf<T[K]> };

/** Inserts a row; give `uuidName` to reference it (namedUuid) from later operations of the same transaction. */
export function insert(table: string, row: Row, uuidName?: string): InsertOp {
    if (uuidName === undefined) return { op: "insert", table, row };
    namedUuid(uuidName); // validates the name
    return { op: "insert", table, row, "uuid-name": uuidName };
}

export function select(table: string, where: Condition[], columns?: string[]): SelectOp {
    return columns === undefined ? { op: "select", table, where } : { op: "select", table, where, columns };
}

export function update(table: string, where: Condition[], row: Row): UpdateOp {
    return { op: "update", table, where, row };
}

export function mutate(table: string, where: Condition[], mutations: Mutation[]): MutateOp {
    return { op: "mutate", table, where, mutations };
}

/** The "delete" operation (named so because `delete` is a JavaScript keyword). */
export function deleteRows(table: string, where: Condition[]): DeleteOp {
    return { op: "delete", table, where };
}

export function wait(
    table: string,
    where: Condition[],
    expect: { columns: string[]; until: "==" | "!="; rows: Row[]; timeout?: number },
): WaitOp {
    const op: WaitOp = { op: "wait", table, where, columns: expect.columns, until: expect.until, rows: expect.rows };
    if (expect.timeout !== undefined) op.timeout = expect.timeout;
    return op;
}

/** Adds text to the server's log next to this transaction (useful to tell who changed what). */
export function comment(text: string): CommentOp {
    return { op: "comment", comment: text };
}

export function where(column: string, fn: ConditionFunction, value: Value): Condition {
    return [column, fn, value];
}

export function mutation(column: string, mutator: Mutator, value: Value): Mutation {
    return [column, mutator, value];
}

/** A short human description of an operation for error messages, e.g. `insert into Logical_Switch_Port "a"`. */
export function describeOperation(op: Operation): string {
    if (op.op === "comment") return "comment";
    const verb = {
        insert: "insert into",
        select: "select from",
        update: "update",
        mutate: "mutate",
        delete: "delete from",
        wait: "wait on",
    }[op.op];
    const name = op.op === "insert" || op.op === "update" ? op.row.name : undefined;
    return `${verb} ${op.table}${typeof name === "string" ? ` ${JSON.stringify(name)}` : ""}`;
}
