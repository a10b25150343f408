// Centralized with OVN from the image: DaemonSet `ovnkube-db` on the centrals runs their NB, SB
// and ovn-northd, as upstream's no-ic chart does (v1.3.0 helm/ovn-kubernetes/charts/ovnkube-db
// and ovnkube-db-raft: `ovnkube.sh nb-ovsdb`, `sb-ovsdb`, `nb-ovsdb-raft`, `sb-ovsdb-raft`;
// northd in ovnkube-master), here with OVN's own ovn-ctl and one pod per central. Each member
// listens on its planned address only; with several centrals NB and SB are raft clusters that the
// first central creates and the others join (ovn-ctl's create_cluster and join_cluster act only on
// a missing database file). A first central whose file is gone while the others serve the database
// joins them instead of splitting the cluster. The files stay on the host (./ovnContainers OVN_DB_DIR).
import type { ImageCentralModel, KubeModel } from "../model/types";
import { onNodes, ovnkubeDaemonSet } from "./daemonset";
import { volumes } from "./hostPaths";
import { OS_LABEL } from "./objectNames";
import { fieldEnv, NODE_NAME_ENV } from "./ovnkubeArgs";
import { serviceAccountName } from "./rbac";
import { NB, nbctl, northdContainer, OVN_DB_DIR, OVN_RUN_FROM_IMAGE, ovnContainer, SB, serverScript, type OvnDb } from "./ovnContainers";
import type { Container, DaemonSet } from "./objectTypes";

/** The DaemonSet's name, upstream's. */
export const OVNKUBE_DB = "ovnkube-db";

/** OVSDB addresses take an IPv6 address in brackets. */
const hostPart = (ip: string) => (ip.includes(":") ? `[${ip}]` : ip);

/**
 * One database of this member: its listener on the member's planned address (picked by the pod's
 * node name, one case per central), and with raft the cluster options.
 */
function centralDbScript(c: ImageCentralModel, d: OvnDb, port: number, raftPort?: number): string {
    const cases = c.members.map((m) => `${m.node}) ip='${hostPart(m.ip)}' ;;`).join(" ");
    const prelude = [
        `case "$${NODE_NAME_ENV}" in ${cases} *) echo "$${NODE_NAME_ENV} is no central of this stack" >&2; exit 1 ;; esac`,
        `set -- "$@" --db-${d.db}-create-insecure-remote=yes --db-${d.db}-addr="$ip" --db-${d.db}-port=${port} --db-${d.db}-use-remote-in-db=no`,
    ];
    if (raftPort !== undefined) {
        const [first, ...others] = c.members;
        prelude.push(
            `set -- "$@" --db-${d.db}-cluster-local-addr="$ip" --db-${d.db}-cluster-local-port=${raftPort} --db-${d.db}-cluster-local-proto=tcp`,
            "join=",
            `if [ "$${NODE_NAME_ENV}" != '${first.node}' ]; then join='${hostPart(first.ip)}'`,
            `elif [ ! -e ${OVN_DB_DIR.mountPath}/${d.file} ]; then`,
            // A member still joining answers too: only one connected to its cluster proves a cluster to join.
            `    connected='["_Server",{"op":"select","table":"Database","where":[["name","==","${d === NB ? "OVN_Northbound" : "OVN_Southbound"}"],["connected","==",true]],"columns":["name"]}]'`,
            `    for peer in ${others.map((m) => `'${hostPart(m.ip)}'`).join(" ")}; do`,
            `        if ovsdb-client --timeout=3 query "tcp:$peer:${port}" "$connected" 2>/dev/null | grep -q '"name"'; then join=$peer; break; fi`,
            "    done",
            "fi",
            `if [ -n "$join" ]; then set -- "$@" --db-${d.db}-cluster-remote-addr="$join" --db-${d.db}-cluster-remote-port=${raftPort} --db-${d.db}-cluster-remote-proto=tcp; fi`,
        );
    }
    // NB_Global's row, which the master waits for (its zone) and northd starts after, from the
    // first member: ovn-ctl's own `init` runs only where it keeps no server in the foreground.
    const first = c.members[0].node;
    const once = d === NB ? [`if [ "$${NODE_NAME_ENV}" = '${first}' ]; then ${nbctl("init")}; fi`] : [];
    return serverScript(d, [], once, prelude);
}

function centralContainers(model: KubeModel, c: ImageCentralModel): Container[] {
    const env = [fieldEnv(NODE_NAME_ENV, "spec.nodeName")];
    const db = (d: OvnDb, port: number, raft?: number) =>
        ovnContainer(model, `${d.db}-ovsdb`, ["/bin/sh", "-c", centralDbScript(c, d, port, raft)], { env });
    return [
        db(NB, c.nbPort, c.raft?.nbPort),
        db(SB, c.sbPort, c.raft?.sbPort),
        // With raft every member's northd follows the cluster; one holds the Southbound lock and works.
        // Every member's address, as the master has them (ovn-config's OvnNorth and OvnSouth).
        northdContainer(model, model.config.OvnNorth, model.config.OvnSouth, "[]"),
    ];
}

/** The centrals' databases, or nothing without OVN from the image or with interconnect. */
export function ovnkubeDb(model: KubeModel): DaemonSet | undefined {
    const c = model.centralDatabases;
    if (!c) return undefined;
    const containers = centralContainers(model, c);
    return ovnkubeDaemonSet(model, OVNKUBE_DB, OVNKUBE_DB, 1, {
        // These containers call no API: the node's account, no role of their own.
        serviceAccountName: serviceAccountName(model, "node"),
        hostPID: false,
        priorityClassName: "system-cluster-critical",
        nodeSelector: { [OS_LABEL]: "linux" },
        affinity: { nodeAffinity: onNodes(c.members.map((m) => m.node)) },
        containers,
        volumes: volumes([OVN_RUN_FROM_IMAGE, OVN_DB_DIR]),
    });
}
