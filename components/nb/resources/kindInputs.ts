// Inputs in, checked and normalized inputs out (provider `check`), and the outputs a resource
// records: its inputs plus the group id and the record of the rows it owns (../core/record).
import { checkCommon, checker, type Failure } from "../core/check";
import { KNOWN_VERSIONS, normalizeCommon, type NbKind } from "../kinds/common";
import { appliedRecord, declaredDigest, recordRows, type RowRecord } from "../core/record";
import type { RowSpec, RowState } from "../core/rows";

const normalized = (kind: NbKind, inputs: Record<string, any>) => ({ ...normalizeCommon(inputs), ...kind.normalize(inputs) });

export function checkInputs(kind: NbKind, news: Record<string, any>): { inputs: Record<string, any>; failures: Failure[] } {
    const inputs: Record<string, any> = normalized(kind, news);
    const c = checker(inputs);
    for (const property of ["nb", "owner", ...kind.properties]) c.present(property);
    checkCommon(c, inputs, KNOWN_VERSIONS);
    kind.validate(c, inputs);
    return { inputs, failures: c.failures };
}

/** Inputs (normalized) plus group, the rows' record and the digest of `specs`. */
function outputsWith(
    inputs: Record<string, unknown>,
    group: string,
    specs: readonly RowSpec[],
    record: Record<string, RowRecord | RowState>,
): Record<string, any> {
    return { ...inputs, group, rows: record, declared: declaredDigest(specs) };
}

/** The outputs recording `rows`, the group's live rows (read, import); a JSON round trip drops any undefined (Structs reject it). */
export function outputsOf(kind: NbKind, inputs: Record<string, any>, group: string, rows: Record<string, RowState>): Record<string, any> {
    const props = normalized(kind, inputs);
    const specs = kind.rows(props as never);
    return JSON.parse(JSON.stringify(outputsWith(props, group, specs, recordRows(specs, rows))));
}

/**
 * The outputs after an apply of `specs`, the rows of `inputs` (checked, so normalizing them again
 * changes none of their rows), which leaves every row as declared: `uuids`, row key → UUID. No
 * JSON round trip: checked inputs, the row names and UUIDs hold no undefined.
 */
export function appliedOutputs(
    kind: NbKind,
    inputs: Record<string, any>,
    group: string,
    specs: readonly RowSpec[],
    uuids: Record<string, string>,
): Record<string, any> {
    return outputsWith(normalized(kind, inputs), group, specs, appliedRecord(specs, uuids));
}
