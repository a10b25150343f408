// Errors of the OVSDB client. Each carries the server's own `error` and `details` strings so that
// callers (and operators reading a failed `pulumi up`) see exactly what ovsdb-server said.

export class OvsdbError extends Error {
    /** The RFC 7047 error keyword, e.g. "constraint violation", when the server gave one. */
    readonly error?: string;
    readonly details?: string;
    constructor(message: string, error?: string, details?: string) {
        super(message);
        // Set again: Pulumi's closure serializer turns `super(message)` of an Error subclass into
        // Error.call(this, message), which sets nothing on `this` in the serialized provider.
        this.message = message;
        this.name = "OvsdbError";
        this.error = error;
        this.details = details;
    }
}

/** One operation of a transaction failed; nothing of the transaction was committed. */
export class OvsdbOperationError extends OvsdbError {
    readonly index: number;
    readonly operation: string;
    constructor(index: number, operation: string, error: string, details?: string) {
        super(`OVSDB operation ${index} (${operation}) failed: ${error}${details ? `: ${details}` : ""}`, error, details);
        this.name = "OvsdbOperationError";
        this.index = index;
        this.operation = operation;
    }
}

/**
 * Every operation succeeded but the commit was refused: referential integrity violation,
 * constraint violation (e.g. a unique index such as Logical_Switch_Port.name), and the like.
 */
export class OvsdbCommitError extends OvsdbError {
    constructor(error: string, details?: string) {
        super(`OVSDB transaction not committed: ${error}${details ? `: ${details}` : ""}`, error, details);
        this.name = "OvsdbCommitError";
    }
}

/** The JSON-RPC request itself was refused (e.g. "unknown database"). */
export class OvsdbRpcError extends OvsdbError {
    constructor(method: string, error: string, details?: string) {
        super(`OVSDB ${method} request refused: ${error}${details ? `: ${details}` : ""}`, error, details);
        this.name = "OvsdbRpcError";
    }
}

/** The connection ended before the reply came; whether a transaction was applied is unknown. */
export class OvsdbClosedError extends OvsdbError {
    constructor(message: string) {
        super(message);
        this.name = "OvsdbClosedError";
    }
}

/** The peer sent something that is not RFC 7047 JSON-RPC. */
export class OvsdbProtocolError extends OvsdbError {
    constructor(message: string) {
        super(message);
        this.name = "OvsdbProtocolError";
    }
}
