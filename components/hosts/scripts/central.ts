// The OVN central: NB + SB databases, ovn-northd and their network listeners (tcp or ssl).
import type { OsFamily } from "../../config/types";
import type { CentralModel } from "../../model/types";
import { checked } from "./patterns";
import { bashScript, type HostScript } from "./shell";

/** The address a listener binds to (`ptcp:6641:10.0.0.1` → `10.0.0.1`). */
function listenerIp(listener: string): string {
    return listener.slice(listener.lastIndexOf(":") + 1);
}

export function centralScript(central: CentralModel, os: OsFamily = "debian"): HostScript {
    const nb = checked("central.nbListener", central.nbListener, "ovsdbListener");
    const sb = checked("central.sbListener", central.sbListener, "ovsdbListener");
    checked("central.host", central.host, "nodeName");
    checked("central.os", os, "osFamily");
    const want = central.ssl ? "pssl:" : "ptcp:";
    for (const [field, value] of [["central.nbListener", nb], ["central.sbListener", sb]]) {
        if (!value.startsWith(want)) throw new Error(`hosts: ${field} must start with ${want} when central.ssl is ${central.ssl}`);
    }
    if (listenerIp(nb) !== listenerIp(sb)) {
        throw new Error(`hosts: central.nbListener and central.sbListener must bind the same address (${listenerIp(nb)} vs ${listenerIp(sb)})`);
    }
    const vars = {
        // Debian's ovn-central unit starts both databases and northd; RHEL calls it ovn-northd.
        central_unit: os === "debian" ? "ovn-central" : "ovn-northd",
        nb_listener: nb,
        sb_listener: sb,
        listen_ip: checked("central.nbListener (address)", listenerIp(nb), "ipv4"),
        ssl: central.ssl ? "yes" : "no",
    };
    return {
        create: bashScript(`OVN central on ${central.host}`, vars, ["common", "ovn-ctl", "secrets", "central-create"]),
        delete: bashScript(`OVN central on ${central.host}: close listeners`, {}, ["common", "central-delete"]),
    };
}
