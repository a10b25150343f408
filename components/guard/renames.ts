// A node renamed in place: the stack drops a host and lists, under another name, a host reached at
// the same address and SSH port. Pulumi names every resource of a node after it, so a rename is a
// replacement of the whole node on the same machine, and its halves would run in the wrong order:
// an `up` creates the new node's resources as it goes and deletes the old node's only at the end
// (see ./destroyGuard), so the old chassis delete would stop ovn-controller and clear the OVN
// settings the new chassis had just written, and the old management port delete would remove the
// port again. The guard refuses it, naming both names, and says how to do it in two `up`s.
// Provider code: runs from the serialized copy, captures only plain data and functions.
import type { GuardedHost } from "./blockers";

export interface HostRename {
    from: string;
    to: string;
    /** `address:port`, the host both names reach. */
    endpoint: string;
}

const endpointOf = (h: GuardedHost) => `${h.ssh.host}:${h.ssh.port}`;

/** Hosts of `olds` that `news` lists under another name at the same endpoint. Pure. */
export function hostRenames(olds: readonly GuardedHost[], news: readonly GuardedHost[]): HostRename[] {
    const oldNames = new Set(olds.map((h) => h.name));
    const newNames = new Set(news.map((h) => h.name));
    const added = news.filter((h) => !oldNames.has(h.name));
    return olds
        .filter((h) => !newNames.has(h.name))
        .flatMap((h) => {
            const to = added.find((a) => endpointOf(a) === endpointOf(h));
            return to ? [{ from: h.name, to: to.name, endpoint: endpointOf(h) }] : [];
        });
}

export function renameRefusal(renames: readonly HostRename[]): string {
    const lines = renames.map(
        (r) =>
            `node "${r.from}" (${r.endpoint}) is renamed "${r.to}": that replaces the node, and its old resources' deletes (chassis, management port, boot entry) would run after the new ones' creates on the same host and undo them`,
    );
    const steps = renames.map((r) => `remove "${r.from}" from the stack and run up (drain it first), then add "${r.to}" and run up again`);
    return `renaming stopped before anything was changed:\n  - ${lines.join("\n  - ")}\nTo rename: ${steps.join("; ")}`;
}
