// Inputs in, checked and normalized inputs out (provider `check`), and the outputs a resource
// records: its inputs plus the group id and the record of the rows it owns (../core/record).
import { checkCommon, checker, type Failure } from "../core/check";
import { KNOWN_VERSIONS, normalizeCommon, type NbKind } from "../kinds/common";
import { appliedRecord, declaredDigest, recordRows, type RowRecord } from "../core/record";
import type { RowSpec, RowState } from "../core/rows";

export function checkInputs(kind: NbKind, news: Record<string, any>): { inputs: Record<string, any>; failures: Failure[] } {
    const inputs: Record<string, any> = { ...normalizeCommon(news), ...kind.normalize(news) };
    const c = checker(inputs);
    for (const property of ["nb", "owner", ...kind.properties]) c.present(property);
    checkCommon(c, inputs, KNOWN_VERSIONS);
    kind.validate(c, inputs);
    return { inputs, failures: c.failures };
}

/** Inputs (normalized) plus group, the rows' record and its digest; a JSON round trip drops any undefined (Structs reject it). */
function outputsWith(kind: NbKind, inputs: Record<string, any>, group: string, record: (specs: RowSpec[]) => Record<string, RowRecord | RowState>): Record<string, any> {
    const normalized = { ...normalizeCommon(inputs), ...kind.normalize(inputs) };
    const specs = kind.rows(normalized as never);
    return JSON.parse(JSON.stringify({ ...normalized, group, rows: record(specs), declared: declaredDigest(specs) }));
}

/** The outputs recording `rows`, the group's live rows (read, import). */
export const outputsOf = (kind: NbKind, inputs: Record<string, any>, group: string, rows: Record<string, RowState>) => outputsWith(kind, inputs, group, (specs) => recordRows(specs, rows));

/** The outputs after an apply, which leaves every declared row as declared: `uuids`, row key → UUID. */
export const appliedOutputs = (kind: NbKind, inputs: Record<string, any>, group: string, uuids: Record<string, string>) =>
    outputsWith(kind, inputs, group, (specs) => appliedRecord(specs, uuids));
