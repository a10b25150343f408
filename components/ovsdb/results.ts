// Turns the raw result array of a "transact" into typed results or the right error.
// Shared by the JSON-RPC client and the remote `ovsdb-client transact` carrier, which print the
// same array.
//
// RFC 7047 section 4.1.3: the result has one element per operation: successes, then possibly one
// {"error": ...} for the operation that failed, then nulls for those not attempted. If every
// operation succeeded but the commit failed, one extra trailing element holds that error.
import { OvsdbCommitError, OvsdbOperationError, OvsdbProtocolError } from "./errors";
import { describeOperation, type Operation, type OperationResult } from "./operations";

interface ErrorObject {
    error: string;
    details?: string;
}

function asError(element: unknown): ErrorObject | undefined {
    if (typeof element !== "object" || element === null || !("error" in element)) return undefined;
    const { error, details } = element as { error: unknown; details?: unknown };
    return { error: String(error), details: typeof details === "string" ? details : undefined };
}

export function checkTransactResults(ops: readonly Operation[], results: unknown): OperationResult[] {
    if (!Array.isArray(results)) {
        throw new OvsdbProtocolError(`OVSDB transact: expected a result array, got ${JSON.stringify(results)}`);
    }
    for (let i = 0; i < ops.length; i++) {
        const failed = asError(results[i]);
        if (failed) throw new OvsdbOperationError(i, describeOperation(ops[i]), failed.error, failed.details);
    }
    if (results.length > ops.length) {
        const failed = asError(results[ops.length]);
        if (failed) throw new OvsdbCommitError(failed.error, failed.details);
    }
    if (results.length < ops.length || results.slice(0, ops.length).some((r) => typeof r !== "object" || r === null)) {
        throw new OvsdbProtocolError(
            `OVSDB transact: ${ops.length} operations but results ${JSON.stringify(results)} hold no error and are incomplete`,
        );
    }
    return results.slice(0, ops.length) as OperationResult[];
}
