// What every NB resource kind has in common: the connection to NB, the owner tag, the schema
// version of its inputs/outputs, and the contract a kind fulfils for the generic provider, made
// by `defineKind` from the kind's one field list (./fields).
import type { ClusterModel } from "../../model/types";
import type { SshTarget } from "../../model/sshTarget";
import { NB_SOCKET } from "../../ssh/ovsdbChannel";
import { UNKNOWN, type Checker } from "../core/check";
import type { RowSpec } from "../core/rows";
import type { NbTable } from "../core/tables";
import { copyPresent, normalizeFields, replacePaths, validateFields, type Fields, type ValueOf } from "./fields";

/**
 * Version of the input/output shape. Stored with every resource: the engine runs the newest
 * provider code against state written by older code, which looks at this to read it correctly.
 * 1: `rows[key]` = table and managed columns. 2: plus `rows[key].uuid`, the row's UUID, which
 * claims the row before its tags do (../core/claims); state of version 1 is read by tags alone and
 * gains the UUIDs on its next update. 3: `rows` keyed by the row's OVN name (../core/rowNames), each
 * row carrying its stable `key`. 4: of each declared row only its UUID and the columns that differ
 * from the declaration, with the `declared` digest beside them (../core/record, which reads them all).
 */
export const NB_SCHEMA_VERSION = "4";
export const KNOWN_VERSIONS: readonly string[] = ["1", "2", "3", "4"];

export interface NbConnection {
    ssh: SshTarget;
    /**
     * The stack config key (`<namespace>:<name>`) holding the SSH private key, which the provider
     * reads from its configuration (../../dynamic/providerConfig): the key stays out of the state.
     */
    privateKeyConfig?: string;
    /**
     * The OpenSSH private key itself, for a program whose key is not in the stack config (a Pulumi
     * secret end to end, stored sealed in every resource's state). Exactly one of the two.
     */
    privateKey?: string;
    /** NB unix socket on the host (default /var/run/ovn/ovnnb_db.sock) or tcp:<ip>:<port>. */
    socket: string;
    /**
     * Clustered NB: every member (the first is `ssh`/`socket` again). Calls go to the current
     * leader and follow it when it changes (../transact/session). Absent with one central.
     */
    members?: NbMember[];
    /**
     * How long create, update and delete wait, after NB committed, for every chassis to apply the
     * change (NB_Global hv_cfg, as `ovn-nbctl --wait=hv`; ../transact/chassisWait). 0: return once
     * NB committed. Absent: 60.
     */
    chassisWaitSeconds?: number;
}

/** Where an NB connection's SSH key comes from: a stack config key (the program's way) or the key. */
export type NbKey = { privateKeyConfig: string } | { privateKey: string };

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

/** One resource made of the model, as the program, render and the benchmark declare it. */
export interface KindInstance {
    /** The node or router it is named after. */
    name: string;
    /** The kind's own inputs (model objects are fine: normalize picks the NB part). */
    inputs: Record<string, unknown>;
    /** Inputs known only at apply time (from the host), as render shows them. */
    placeholders: Record<string, string>;
}

/** What a kind module declares: its field list, its rows and where its instances come from. */
/**
 * ovnkube mode: what the plan expects of the rows ovnkube writes in place of a kind's, as
 * NorthboundExpectation rows (row key → column path → cell). Pure: values come from the model.
 */
/** Row key → column path → expected cell: a value, or a set as a list. */
export type ExpectedRows = Record<string, Record<string, string | string[]>>;

/** A set column's expected cell: one value stands alone, as the expectation's canonical form has it. */
export const setCell = (values: readonly string[]): string | string[] => (values.length === 1 ? values[0] : [...values]);

/**
 * Cells of some of a kind's own rows, as an expectation states them: `paths` gives, by row key,
 * the column paths (`networks`, `other_config:subnet`) to take; a one-element set is its atom.
 */
export function expectedCells(specs: readonly RowSpec[], paths: Readonly<Record<string, readonly string[]>>): ExpectedRows {
    const cell = (spec: RowSpec, path: string): string => {
        const [column, key] = path.split(":");
        const value = key === undefined ? spec.columns[column] : spec.maps[column]?.[key];
        if (typeof value === "string") return value;
        if (Array.isArray(value) && value.length === 1) return value[0];
        throw new Error(`internal: ${spec.name} has no single value at ${path}`);
    };
    return Object.fromEntries(
        specs.filter((s) => paths[s.key] !== undefined).map((s) => [s.name, Object.fromEntries(paths[s.key].map((p) => [p, cell(s, p)]))]),
    );
}

export interface KindSpec<F extends Fields, P> {
    /** Resource type name, also the first word of error messages. */
    type: string;
    /** The kind's own inputs (besides nb, owner, version), each declared once. */
    inputs: F;
    /** Tables the group may own rows in (read by tags on every call). */
    tables: readonly NbTable[];
    /** Checks that relate several fields (each field checks itself). */
    refine?(c: Checker, inputs: ValueOf<F>): void;
    group(inputs: ValueOf<F>): string;
    rows(owner: string, inputs: ValueOf<F>): RowSpec[];
    /** Its instances in a cluster model. */
    instances(model: ClusterModel): KindInstance[];
    /** Its ovnkube-mode projection (ExpectedRows): the same rows as ovnkube writes them. */
    ovnkube: P;
}

export interface NbKind<I extends CommonInputs = any> {
    type: string;
    /** Top-level input properties of this kind besides nb, owner and version. */
    properties: readonly string[];
    /** Input paths whose change makes it a different set of rows (group id, unique names, database): replace, deleting first. */
    replaceOn: readonly string[];
    tables: readonly NbTable[];
    /** Copies the kind's own properties (from inputs, state or a model object); tolerates unknown values. */
    normalize(raw: Record<string, any>): Record<string, unknown>;
    validate(c: Checker, inputs: Record<string, any>): void;
    group(inputs: I): string;
    rows(inputs: I): RowSpec[];
    instances(model: ClusterModel): KindInstance[];
}

/** Connection and owner: a change means other rows, or rows in another database. */
const COMMON_REPLACE = ["owner", "nb.ssh.host", "nb.ssh.port", "nb.socket"];

export function defineKind<F extends Fields, P>(spec: KindSpec<F, P>): NbKind<CommonInputs & ValueOf<F>> & { ovnkube: P } {
    return {
        ovnkube: spec.ovnkube,
        type: spec.type,
        properties: Object.keys(spec.inputs),
        replaceOn: [...COMMON_REPLACE, ...replacePaths(spec.inputs)],
        tables: spec.tables,
        normalize: (raw) => normalizeFields(spec.inputs, raw),
        validate: (c, inputs) => {
            validateFields(c, spec.inputs);
            spec.refine?.(c, inputs as ValueOf<F>);
        },
        group: (inputs) => spec.group(inputs),
        rows: (inputs) => spec.rows(inputs.owner, inputs),
        instances: spec.instances,
    };
}

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
        const nb = normalizeEndpoint(nbRaw, ["privateKeyConfig", "privateKey", "socket", "chassisWaitSeconds"]);
        // Only present when clustered, so single-central inputs stay exactly as they were.
        if (Array.isArray(nbRaw?.members)) nb.members = nbRaw.members.map((m: unknown) => normalizeEndpoint(m, ["socket"]));
        else if (nbRaw?.members === UNKNOWN) nb.members = UNKNOWN;
        out.nb = nb;
    }
    if (raw.owner !== undefined) out.owner = raw.owner;
    out.version = raw.version ?? NB_SCHEMA_VERSION;
    return out;
}
