// The fallback carrier for OVSDB when the host's sshd forbids forwarding
// (AllowStreamLocalForwarding no / AllowTcpForwarding no): every transaction is one exec of
// `ovsdb-client transact` on the host itself. Same results and errors as the JSON-RPC client,
// one SSH session per transaction instead of one long-lived channel.
import { OvsdbError, OvsdbRpcError } from "../ovsdb/errors";
import type { OvsdbTransactor } from "../ovsdb/client";
import type { Operation, ResultsOf } from "../ovsdb/operations";
import { checkTransactResults } from "../ovsdb/results";
import type { SshTarget } from "../model/sshTarget";
import { exec, type ExecResult } from "./exec";
import { sshAddress } from "./pool";
import { shellQuote } from "./shellQuote";

/**
 * The kernel caps one command-line argument at 128 KiB (MAX_ARG_STRLEN) and ovsdb-client only
 * takes the transaction as an argument; refuse clearly rather than fail with E2BIG.
 */
const MAX_TRANSACTION_BYTES = 128 * 1024 - 1024;

export class RemoteOvsdbClient implements OvsdbTransactor {
    readonly closed = false;
    private readonly target: SshTarget;
    private readonly privateKey: string;
    /** ovsdb-client's name for the server, e.g. unix:/var/run/ovn/ovnnb_db.sock. */
    private readonly remote: string;

    constructor(target: SshTarget, privateKey: string, remote: string) {
        this.target = target;
        this.privateKey = privateKey;
        this.remote = remote;
    }

    async transact<const T extends readonly Operation[]>(db: string, ops: T): Promise<ResultsOf<T>> {
        const json = JSON.stringify([db, ...ops]);
        if (Buffer.byteLength(json) > MAX_TRANSACTION_BYTES) {
            throw new OvsdbError(
                `${this.label()}: transaction of ${Buffer.byteLength(json)} bytes is too large for remote ovsdb-client ` +
                    `(128 KiB argument limit); allow stream-local forwarding in that host's sshd`,
            );
        }
        // The JSON travels on stdin and becomes one argument via "$(cat)": it never meets shell parsing.
        const result = await exec(this.target, this.privateKey, `ovsdb-client --timeout=60 transact ${shellQuote(this.remote)} "$(cat)"`, {
            stdin: json,
        });
        if (result.code !== 0) throw this.failure("transact", result);
        let parsed: unknown;
        try {
            parsed = JSON.parse(result.stdout);
        } catch {
            throw new OvsdbError(`${this.label()}: ovsdb-client printed no JSON result: ${result.stdout.slice(0, 200)}`);
        }
        return checkTransactResults(ops, parsed) as ResultsOf<T>;
    }

    /** True when ovsdb-client on the host reaches the server; else throws with what it said. */
    async probe(): Promise<void> {
        const result = await exec(this.target, this.privateKey, `ovsdb-client --timeout=10 list-dbs ${shellQuote(this.remote)}`);
        if (result.code !== 0) throw this.failure("list-dbs", result);
    }

    close(): void {
        // Nothing is held open: each transaction is its own SSH session.
    }

    private label(): string {
        return `${this.remote} via ovsdb-client on ${sshAddress(this.target)}`;
    }

    private failure(command: string, result: ExecResult): OvsdbError {
        const stderr = result.stderr.trim();
        if (result.code === 127) return new OvsdbError(`${this.label()}: ovsdb-client is not installed there`);
        // ovsdb-client prints a refused request as: "transaction returned error: {json}"
        const refused = /returned error: (\{.*\})\s*$/s.exec(stderr);
        if (refused) {
            try {
                const body = JSON.parse(refused[1]) as { error?: unknown; details?: unknown };
                return new OvsdbRpcError(command, String(body.error), typeof body.details === "string" ? body.details : undefined);
            } catch {
                // fall through to the plain message
            }
        }
        return new OvsdbError(`${this.label()}: ovsdb-client ${command} failed (exit ${result.code}): ${stderr}`);
    }
}
