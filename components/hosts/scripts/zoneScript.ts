// Interconnect: a node's own zone, its NB, SB and ovn-northd on unix sockets (upstream's
// local-nb-ovsdb, local-sb-ovsdb and run-ovn-northd, dist/images/ovnkube.sh at v1.3.0).
import type { OsFamily } from "../../config/types";
import { checked } from "../../values";
import { centralUnit } from "./centralScript";
import { bashScript, type HostScript } from "./shell";

/** ovnkube.sh's default `ovn_northd_backoff_interval`: northd batches changes instead of spinning. */
export const NORTHD_BACKOFF_MS = "300";

export function zoneScript(zone: string, os: OsFamily = "debian"): HostScript {
    const vars = {
        zone: checked("zone", zone, "nodeName"),
        central_unit: centralUnit(checked("os", os, "osFamily") as OsFamily),
        northd_backoff_ms: NORTHD_BACKOFF_MS,
    };
    return {
        create: bashScript(vars, ["ovn-ctl", "zone-create"]),
        delete: bashScript({ central_unit: vars.central_unit }, ["ovn-ctl", "zone-delete"]),
    };
}
