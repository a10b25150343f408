// Reading a central member's raft state on a lab host, as an operator would: `cluster/status`
// of the member's ovsdb-server (through ovs-appctl on its control socket).
import { hostExec, type LocalCluster } from "../../../lab/localcluster";
import { parseClusterStatus, type ClusterStatus } from "../../../components/status/clusterStatus";

export const DBS = { nb: "OVN_Northbound", sb: "OVN_Southbound" } as const;

export async function raftStatus(cluster: LocalCluster, host: string, db: keyof typeof DBS): Promise<ClusterStatus | undefined> {
    const r = await hostExec(cluster, host, ["ovs-appctl", "-t", `/var/run/ovn/ovn${db}_db.ctl`, "cluster/status", DBS[db]]);
    return r.code === 0 ? parseClusterStatus(r.stdout) : undefined;
}
