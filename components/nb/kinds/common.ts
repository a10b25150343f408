// What every NB resource kind has in common: the connection to NB, the owner tag, the schema
// version of its inputs/outputs, and the contract a kind fulfils for the generic provider.
import type { SshTarget } from "../../ssh/target";
import { NB_SOCKET } from "../../ssh/ovsdbChannel";
import { UNKNOWN, type Checker } from "../check";
import type { RowSpec } from "../rows";
import type { NbTable } from "../tables";

/**
 * Version of the input/output shape. Stored with every resource: the engine runs the newest
 * provider code against state written by older code, which looks at this to read it correctly.
 * 1: `rows[key]` = table and managed columns. 2: plus `rows[key].uuid`, the row's UUID, which
 * claims the row before its tags do (../claims); state of version 1 is read by tags alone and
 * gains the UUIDs on its next update.
 */
export const NB_SCHEMA_VERSION = "2";
export const KNOWN_VERSIONS: readonly string[] = ["1", "2"];

export interface NbConnection {
    ssh: SshTarget;
    /** OpenSSH private key; a Pulumi secret end to end. */
    privateKey: string;
    /** NB unix socket on the host (default /var/run/ovn/ovnnb_db.sock) or tcp:<ip>:<port>. */
    socket: string;
    /**
     * Clustered NB: every member (the first is `ssh`/`socket` again). Calls go to the current
     * leader and follow it when it changes (../session). Absent with one central.
     */
    members?: NbMember[];
}

export interface NbMember {
    ssh: SshTarget;
    socket: string;
}

export interface CommonInputs {
    nb: NbConnection;
    /** `<project>/<stack>`: the pulumi-owner tag of every row. */
    owner: string;
    version: string;
}

export interface NbKind<I extends CommonInputs = any> {
    /** Resource type name, also the first word of error messages. */
    type: string;
    /** Top-level input properties of this kind besides nb, owner and version. */
    properties: readonly string[];
    /** Input paths whose change makes it a different set of rows (group id, unique names, database): replace, deleting first. */
    replaceOn: readonly string[];
    /** Tables the group may own rows in (read by tags on every call). */
    tables: readonly NbTable[];
    /** Copies the kind's own properties with defaults; tolerates unknown values. */
    normalize(raw: Record<string, any>): Record<string, unknown>;
    validate(c: Checker, inputs: Record<string, any>): void;
    group(inputs: I): string;
    rows(inputs: I): RowSpec[];
}

/** Copies the listed keys that are present (never writes undefined: outputs become protobuf Structs). */
export function copyPresent(source: unknown, keys: readonly string[]): Record<string, unknown> {
    if (source === UNKNOWN) return source as never;
    const out: Record<string, unknown> = {};
    if (typeof source !== "object" || source === null) return out;
    for (const k of keys) {
        const v = (source as Record<string, unknown>)[k];
        if (v !== undefined) out[k] = v;
    }
    return out;
}

export const ADDRESS_KEYS = ["ip", "cidr", "mac"] as const;

/** An NB endpoint's `ssh` and the listed keys, with the defaults of the socket and host-key flag. */
function normalizeEndpoint(raw: any, keys: readonly string[]): Record<string, unknown> {
    const nb = copyPresent(raw, keys);
    if (nb === (UNKNOWN as never)) return nb;
    if (raw?.ssh !== undefined) {
        const ssh = copyPresent(raw.ssh, ["host", "port", "user", "hostKey", "insecureIgnoreHostKey"]);
        if (ssh !== (UNKNOWN as never) && ssh.insecureIgnoreHostKey === undefined) ssh.insecureIgnoreHostKey = false;
        nb.ssh = ssh;
    }
    nb.socket ??= NB_SOCKET;
    return nb;
}

export function normalizeCommon(raw: Record<string, any>): Record<string, unknown> {
    const nbRaw = raw.nb;
    const out: Record<string, unknown> = {};
    if (nbRaw === UNKNOWN) out.nb = UNKNOWN;
    else if (nbRaw !== undefined) {
        const nb = normalizeEndpoint(nbRaw, ["privateKey", "socket"]);
        // Only present when clustered, so single-central inputs stay exactly as they were.
        if (Array.isArray(nbRaw?.members)) nb.members = nbRaw.members.map((m: unknown) => normalizeEndpoint(m, ["socket"]));
        else if (nbRaw?.members === UNKNOWN) nb.members = UNKNOWN;
        out.nb = nb;
    }
    if (raw.owner !== undefined) out.owner = raw.owner;
    out.version = raw.version ?? NB_SCHEMA_VERSION;
    return out;
}
