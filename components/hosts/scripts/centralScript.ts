// The OVN central: NB + SB databases, ovn-northd and their network listeners (tcp or ssl).
import type { OsFamily } from "../../config/types";
import type { CentralModel } from "../../model/types";
import { checked, checkedInt } from "../../values";
import { bashScript, type HostScript } from "./shell";

/** The address a listener binds to (`ptcp:6641:10.0.0.1` → `10.0.0.1`). */
function listenerIp(listener: string): string {
    return listener.slice(listener.lastIndexOf(":") + 1);
}

/** Debian's ovn-central unit starts both databases and northd; RHEL calls it ovn-northd. */
export const centralUnit = (os: OsFamily) => (os === "debian" ? "ovn-central" : "ovn-northd");

export function centralScript(central: CentralModel, os: OsFamily = "debian"): HostScript {
    const nb = checked("central.nbListener", central.nbListener, "ovsdbListener");
    const sb = checked("central.sbListener", central.sbListener, "ovsdbListener");
    checked("central.host", central.host, "nodeName");
    checked("central.os", os, "osFamily");
    const want = central.ssl ? "pssl:" : "ptcp:";
    for (const [field, value] of [
        ["central.nbListener", nb],
        ["central.sbListener", sb],
    ]) {
        if (!value.startsWith(want)) throw new Error(`hosts: ${field} must start with ${want} when central.ssl is ${central.ssl}`);
    }
    if (listenerIp(nb) !== listenerIp(sb)) {
        throw new Error(
            `hosts: central.nbListener and central.sbListener must bind the same address (${listenerIp(nb)} vs ${listenerIp(sb)})`,
        );
    }
    const vars = {
        central_unit: centralUnit(os),
        nb_listener: nb,
        sb_listener: sb,
        listen_ip: checked("central.nbListener (address)", listenerIp(nb), "ipv4"),
        ssl: central.ssl ? "yes" : "no",
    };
    return {
        create: bashScript(vars, ["ovn-ctl", "secrets", "central-create"]),
        delete: bashScript({}, ["central-delete"]),
    };
}

/**
 * One member of clustered NB and SB (several centrals): raft between the members, listeners and
 * ovn-northd on each. The first member creates the clusters (from the databases a single central
 * had, when growing), the others join every member before them.
 */
export function centralMemberScript(central: CentralModel, member: string): HostScript {
    const cluster = central.cluster;
    if (!cluster) throw new Error(`hosts: central.cluster is required for a member script (${member})`);
    const index = cluster.members.findIndex((m) => m.host === member);
    if (index < 0) throw new Error(`hosts: ${member} is not a member of central.cluster`);
    const field = (i: number) => `central.cluster.members[${i}].ip`;
    const ips = cluster.members.map((m, i) => checked(field(i), m.ip, "ipv4"));
    const port = (key: "nbPort" | "sbPort" | "nbRaftPort" | "sbRaftPort") => checkedInt(`central.cluster.${key}`, cluster[key], 1, 65535);
    const vars = {
        member_ip: ips[index],
        peer_ips: ips.filter((_, i) => i !== index).join(" "),
        proto: checked("central.cluster.protocol", cluster.protocol, "ovnProtocol"),
        nb_port: port("nbPort"),
        sb_port: port("sbPort"),
        nb_raft_port: port("nbRaftPort"),
        sb_raft_port: port("sbRaftPort"),
        bootstrap: index === 0 ? "yes" : "no",
        ssl: central.ssl ? "yes" : "no",
    };
    const host = checked(`central.cluster.members[${index}].host`, member, "nodeName");
    return {
        create: bashScript(vars, ["ovn-ctl", "secrets", "central-cluster-create"]),
        delete: bashScript({}, ["ovn-ctl", "central-cluster-delete"]),
    };
}
