// Which daemons run on the local cluster's hosts, found from /proc (a process is on a host when
// it sits in that host's network namespace, as hostNetwork pods' containers do): bare hosts
// run no OVS or OVN daemon; a host of an ovnkube cluster runs one ovnkube per ovnkube pod.
import * as fs from "node:fs";
import type { LocalCluster } from "../../../lab/localcluster";
import { processesIn, stillRunning } from "../../localcluster/leftovers";

export const OVS_OVN_DAEMONS = ["ovsdb-server", "ovs-vswitchd", "ovn-northd", "ovn-controller"];

/** `<host>: <program>` for every process on the cluster's hosts running one of `programs`, sorted. */
export function processesNamed(cluster: LocalCluster, programs: readonly string[]): string[] {
    const found: string[] = [];
    for (const host of cluster.hosts) {
        for (const { pid } of stillRunning(processesIn([host.netns]))) {
            let comm = "";
            try {
                comm = fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
            } catch {
                continue;
            }
            if (programs.includes(comm)) found.push(`${host.name}: ${comm}`);
        }
    }
    return found.sort();
}

export const ovsOvnDaemons = (cluster: LocalCluster) => processesNamed(cluster, OVS_OVN_DAEMONS);
