// What the demo tells a user to run to look at the cluster: the OVN databases are reached inside
// the host that runs them (interconnect: every node its own zone's; centralized: the central),
// where ovn-nbctl and ovn-sbctl find them at their default sockets (with OVN from the image, the
// pod's sockets on the host, read with Open vSwitch's ovsdb-client).
import type { ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { NB_SOCKET, SB_SOCKET } from "@ovn-kubernetes-as-code/cluster/model";
import { DEFAULT_ID } from "./names";

export interface ExploreCommand {
    host: string;
    /** The command run inside the host. */
    argv: string[];
    /** The same, as a user types it from the project's directory. */
    line: string;
}

/** `npm run local -- exec [--id ID] HOST -- ARGV...` (argv words are plain: no quoting needed). */
export function localExecLine(id: string, host: string, argv: readonly string[]): string {
    return ["npm run local -- exec", ...(id === DEFAULT_ID ? [] : ["--id", id]), host, "--", ...argv].join(" ");
}

/**
 * With OVN from the image the hosts have no OVN tools, only Open vSwitch's: ovsdb-client reads the
 * pod's databases at their sockets on the host (the logical switches, the chassis).
 */
const FROM_IMAGE: ReadonlyArray<readonly string[]> = [
    ["ovsdb-client", "dump", `unix:${NB_SOCKET}`, "OVN_Northbound", "Logical_Switch", "name"],
    ["ovsdb-client", "dump", `unix:${SB_SOCKET}`, "OVN_Southbound", "Chassis", "hostname"],
];

/** Every host that serves NB and SB, each with `ovn-nbctl show` and `ovn-sbctl show` (or, OVN from the image, ovsdb-client's dumps). */
export function exploreCommands(
    id: string,
    model: Pick<ClusterModel, "architecture" | "central" | "hosts" | "ovnSource">,
): ExploreCommand[] {
    const hosts =
        model.architecture === "interconnect"
            ? model.hosts.filter((h) => h.zone).map((h) => h.name)
            : model.central
              ? [model.central.host]
              : [];
    // A raft member that is not the leader answers reads only when told it may.
    const leaderOnly = model.central?.cluster ? ["--no-leader-only"] : [];
    const commands = model.ovnSource === "image" ? FROM_IMAGE : ["ovn-nbctl", "ovn-sbctl"].map((tool) => [tool, ...leaderOnly, "show"]);
    return hosts.flatMap((host) => commands.map((argv) => ({ host, argv: [...argv], line: localExecLine(id, host, argv) })));
}
