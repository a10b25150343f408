// Interconnect: a node's own zone, its NB, SB and ovn-northd on unix sockets (upstream's
// local-nb-ovsdb, local-sb-ovsdb and run-ovn-northd, dist/images/ovnkube.sh at v1.3.0). With OVN
// from the image those run in the node's ovnkube-node pod (../../kube/ovnContainers), and the
// host's part is only to remove, at destroy, the database files the pod created.
import type { OsFamily } from "../../config/types";
import type { OvnSource } from "../../config/ovnSource";
import { IMAGE_OVN_DB_DIR, NB_DB_FILE, NORTHD_BACKOFF_MS, OVN_RUN_DIR, SB_DB_FILE } from "../../model/names";
import { checked } from "../../values";
import { centralUnit } from "./centralScript";
import { bashScript, type HostScript } from "./shell";

export { NORTHD_BACKOFF_MS };

export function zoneScript(zone: string, os: OsFamily = "debian", source: OvnSource = "packages"): HostScript {
    if (source === "image") {
        const vars = { db_dir: IMAGE_OVN_DB_DIR, db_files: `${NB_DB_FILE} ${SB_DB_FILE}`, run_dir: OVN_RUN_DIR };
        return { create: bashScript(vars, ["zone-image-record"]), delete: bashScript(vars, ["zone-image-delete"]) };
    }
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
