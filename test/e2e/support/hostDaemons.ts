// Which OVS and OVN daemons run on the local cluster's hosts, found from /proc (a process is on
// a host when it sits in that host's network namespace): bare hosts run none.
import * as fs from "node:fs";
import type { LocalCluster } from "../../../localcluster";
import { processesIn, stillRunning } from "../../localcluster/leftovers";

export const OVS_OVN_DAEMONS = ["ovsdb-server", "ovs-vswitchd", "ovn-northd", "ovn-controller"] as const;

/** `<host>: <daemon>` for every OVS/OVN daemon running on the cluster's hosts, sorted. */
export function ovsOvnDaemons(cluster: LocalCluster): string[] {
    const found: string[] = [];
    for (const host of cluster.hosts) {
        for (const { pid } of stillRunning(processesIn([host.netns]))) {
            let comm = "";
            try {
                comm = fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
            } catch {
                continue;
            }
            if ((OVS_OVN_DAEMONS as readonly string[]).includes(comm)) found.push(`${host.name}: ${comm}`);
        }
    }
    return found.sort();
}
