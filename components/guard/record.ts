// What the change and destroy guards keep of their hosts and ovnkube nodes. Both guards record, in
// inputs and outputs, every host and (ovnkube mode) every node's NB connection: in full, that is a
// host's whole SSH target twice per host (its own, and its zone's NB on it). The record keeps the
// SSH settings the hosts share once (`sshShared`: port, user, whether keys are checked), per host
// only what differs from them (its address and pinned key), and an NB connection by the name of
// the host it is on, its default socket and the guard's own key entry left out. `expandRecord`
// gives the full scope back; state written before (full targets, no `sshShared`) reads as it is.
// Pure; provider code (runs from the installed package).
import type { SshTarget } from "../model/sshTarget";
import { NB_SOCKET } from "../ssh/ovsdbChannel";
import type { NbConnection, NbMember } from "../nb/kinds/common";
import type { GuardedHost, OvnkubeNodeRecord } from "./blockers";

/** The SSH settings recorded once for all hosts. */
export type SharedSsh = Pick<SshTarget, "port" | "user" | "insecureIgnoreHostKey">;
const SHARED_FIELDS = ["port", "user", "insecureIgnoreHostKey"] as const;

/** A host as recorded: its target without what `sshShared` says. */
export type RecordedHost = Omit<GuardedHost, "ssh"> & { ssh: Partial<SshTarget> };

/** An SSH endpoint as recorded: `on` names the guarded host whose target it is; `socket` absent when the default. */
export interface RecordedEndpoint {
    on?: string;
    ssh?: Partial<SshTarget>;
    socket?: string;
}

export type RecordedNb = RecordedEndpoint & Omit<NbConnection, "ssh" | "socket" | "members"> & { members?: RecordedEndpoint[] };

export interface RecordedScope {
    sshShared?: SharedSsh;
    hosts: RecordedHost[];
    ovnkubeNodes?: { name: string; nb: RecordedNb }[];
    privateKeyConfig?: string;
}

const targetKey = (t: SshTarget) => JSON.stringify([t.host, t.port, t.user, t.hostKey ?? null, t.insecureIgnoreHostKey]);

/** The first host's shared settings: the others usually have the same. */
export function sharedSsh(hosts: readonly GuardedHost[]): SharedSsh | undefined {
    if (hosts.length === 0) return undefined;
    const { port, user, insecureIgnoreHostKey } = hosts[0].ssh;
    return { port, user, insecureIgnoreHostKey };
}

function compactSsh(ssh: SshTarget, shared: SharedSsh | undefined): Partial<SshTarget> {
    const out: Partial<SshTarget> = { ...ssh };
    for (const f of SHARED_FIELDS) if (shared && ssh[f] === shared[f]) delete out[f];
    return out;
}

export function recordHosts(hosts: readonly GuardedHost[], shared: SharedSsh | undefined): RecordedHost[] {
    return hosts.map((h) => ({ ...h, ssh: compactSsh(h.ssh, shared) }));
}

function recordEndpoint(
    e: { ssh: SshTarget; socket: string },
    hostNames: ReadonlyMap<string, string>,
    shared: SharedSsh | undefined,
): RecordedEndpoint {
    const on = hostNames.get(targetKey(e.ssh));
    return { ...(on !== undefined ? { on } : { ssh: compactSsh(e.ssh, shared) }), ...(e.socket !== NB_SOCKET ? { socket: e.socket } : {}) };
}

/** ovnkube nodes' NB connections by the hosts they are on; `privateKeyConfig` is the guard's own. */
export function recordOvnkubeNodes(
    nodes: readonly OvnkubeNodeRecord[],
    hosts: readonly GuardedHost[],
    shared: SharedSsh | undefined,
    privateKeyConfig: string | undefined,
): { name: string; nb: RecordedNb }[] {
    const hostNames = new Map(hosts.map((h) => [targetKey(h.ssh), h.name]));
    return nodes.map(({ name, nb }) => {
        const { ssh, socket, members, privateKeyConfig: keyConfig, ...rest } = nb;
        const recorded: RecordedNb = { ...recordEndpoint({ ssh, socket }, hostNames, shared), ...rest };
        if (keyConfig !== undefined && keyConfig !== privateKeyConfig) recorded.privateKeyConfig = keyConfig;
        if (members !== undefined) recorded.members = members.map((m) => recordEndpoint(m, hostNames, shared));
        return { name, nb: recorded };
    });
}

function expandEndpoint(e: RecordedEndpoint, targets: ReadonlyMap<string, SshTarget>, shared: SharedSsh | undefined): NbMember {
    const ssh = e.on !== undefined ? targets.get(e.on) : ({ ...shared, ...e.ssh } as SshTarget);
    if (ssh === undefined) throw new Error(`guard record: an NB connection is on host ${e.on}, which the record does not list`);
    return { ssh, socket: e.socket ?? NB_SOCKET };
}

/** The full hosts and ovnkube nodes of a record, of this version or an earlier one. */
export function expandRecord<T extends RecordedScope>(
    record: T,
): Omit<T, "hosts" | "ovnkubeNodes"> & { hosts: GuardedHost[]; ovnkubeNodes?: OvnkubeNodeRecord[] } {
    const shared = record.sshShared;
    const hosts = (record.hosts ?? []).map((h) => ({ ...h, ssh: { ...shared, ...h.ssh } as SshTarget }));
    const targets = new Map(hosts.map((h) => [h.name, h.ssh]));
    const ovnkubeNodes = record.ovnkubeNodes?.map(({ name, nb }) => {
        const { on: _on, ssh: _ssh, socket: _socket, members, ...rest } = nb;
        const full: NbConnection = { ...rest, ...expandEndpoint(nb, targets, shared) };
        if (full.privateKeyConfig === undefined && full.privateKey === undefined && record.privateKeyConfig !== undefined)
            full.privateKeyConfig = record.privateKeyConfig;
        if (members !== undefined) full.members = members.map((m) => expandEndpoint(m, targets, shared));
        return { name, nb: full };
    });
    return { ...record, hosts, ...(ovnkubeNodes !== undefined ? { ovnkubeNodes } : {}) };
}
