// ovnkube.ovnSource image: the node's zone (NB, SB, ovn-northd) and its ovn-controller as
// containers of its ovnkube-node pod, from the same image as ovnkube, as upstream's
// single-node-zone chart runs them (v1.3.0 helm/ovn-kubernetes/charts/ovnkube-single-node-zone/
// templates/ovnkube-single-node-zone.yaml: nb-ovsdb :43-46, sb-ovsdb :118-121, ovn-northd
// :189-192, ovn-controller :512-515). They run OVN's own commands, not upstream's ovnkube.sh (which
// the project's image reference need not carry): ovn-ctl for the databases, which creates a missing
// database file and converts one of an older schema, as an upgraded image needs.
//
// The database files live on the host where upstream keeps them (IMAGE_OVN_DB_DIR as the
// containers' /etc/ovn), so a pod restart loses nothing; the sockets in the host's /var/run/ovn,
// the path ovnkube's defaults, the expectations and the package mode all use. Kubernetes restarts
// a container that exits (upstream runs them with --no-monitor, dist/images/ovnkube.sh:1128-1130).
//
// The zone's NB_Global cells (name, options:name, the northd backoff) have one writer: the nb-ovsdb
// container declared here, after its server starts, as the package mode's zone script writes them
// on the host; ovnkube-controller waits for the name before it writes the zone (v1.3.0
// go-controller/pkg/controllermanager/controller_manager.go:394-416).
import { IMAGE_OVN_DB_DIR, NB_DB_FILE, NB_SOCKET, NORTHD_BACKOFF_MS, OVN_RUN_DIR, SB_DB_FILE, SB_SOCKET } from "../model/names";
import type { KubeModel } from "../model/types";
import { mounts, OVN_RUN, OVS_RUN, type HostDir } from "./hostPaths";
import { fieldEnv, NODE_NAME_ENV } from "./ovnkubeArgs";
import type { Container } from "./objectTypes";

/** The host's database directory, as the containers' /etc/ovn (upstream's volume name). */
export const OVN_DB_DIR: HostDir = {
    name: "host-var-lib-ovs",
    hostPath: IMAGE_OVN_DB_DIR,
    mountPath: "/etc/ovn",
    type: "DirectoryOrCreate",
};
/** With OVN from the image the host has no OVN package to make its run directory. */
export const OVN_RUN_FROM_IMAGE: HostDir = { ...OVN_RUN, type: "DirectoryOrCreate" };

/** Where Debian's, Ubuntu's and Fedora's OVN packages install ovn-ctl. */
const OVN_CTL = "/usr/share/ovn/scripts/ovn-ctl";
/** Logs to the container's output (`kubectl logs`), none to files inside it. */
const CONSOLE_LOG = "-vconsole:info -vfile:off";

/** The database files, as the containers see them. */
const dbFile = (file: string) => `${OVN_DB_DIR.mountPath}/${file}`;

/** A database as ovn-ctl names it: its server, file, socket and `ovn-<db>ctl`. */
export interface OvnDb {
    db: "nb" | "sb";
    file: string;
    socket: string;
}
export const NB: OvnDb = { db: "nb", file: NB_DB_FILE, socket: NB_SOCKET };
export const SB: OvnDb = { db: "sb", file: SB_DB_FILE, socket: SB_SOCKET };

/**
 * A database container's script: `prelude` (shell lines that may add ovn-ctl options with `set --
 * "$@" …`), ovn-ctl's server in the background, `once` when it answers on its socket, then the
 * server's own exit status. TERM (the pod's end) goes to the whole process group: ovn-ctl may run
 * the server as its own child (a raft cluster's creator). Fixed text: values come from the
 * environment (the pod's node, name and address) and from validated model values.
 */
export function serverScript(d: OvnDb, options: readonly string[], once: readonly string[] = [], prelude: readonly string[] = []): string {
    return [
        "set -eu",
        `set -- --db-${d.db}-file=${dbFile(d.file)} --ovn-${d.db}-log="${CONSOLE_LOG}" ${options.join(" ")}`,
        ...prelude,
        // A pid file a previous container left in the host's directory may name a process of this
        // one's: ovn-ctl would take the server for running and start none (so does upstream's ovnkube.sh).
        `rm -f ${OVN_RUN_DIR}/ovn${d.db}_db.pid`,
        `${OVN_CTL} "$@" run_${d.db}_ovsdb &`,
        "server=$!",
        `trap 'trap "" TERM INT; kill -TERM 0' TERM INT`,
        "tries=0",
        `until ovsdb-client --timeout=2 list-dbs unix:${d.socket} >/dev/null 2>&1; do`,
        `    kill -0 "$server"; tries=$((tries + 1)); [ "$tries" -le 240 ] || { echo "${d.db.toUpperCase()} did not answer within 120 s" >&2; exit 1; }; sleep 0.5`,
        "done",
        ...once,
        'wait "$server"',
    ].join("\n");
}

/** `ovn-nbctl` on the local NB socket (a raft follower forwards writes to its leader). */
export const nbctl = (command: string) => `ovn-nbctl --db=unix:${NB_SOCKET} --no-leader-only --timeout=30 ${command}`;

/**
 * ovn-northd's container: northd once NB_Global has a row that `where` selects (OVSDB
 * conditions), so that the row is the database container's (northd creates one when it finds
 * none). The wait is a read-only select on the local socket.
 */
export function northdContainer(model: KubeModel, nbDb: string, sbDb: string, where: string): Container {
    const script = [
        "set -eu",
        `ready='["OVN_Northbound",{"op":"select","table":"NB_Global","where":${where},"columns":["_uuid"]}]'`,
        `until ovsdb-client --timeout=2 transact unix:${NB_SOCKET} "$ready" 2>/dev/null | grep -q '"_uuid"'; do sleep 0.5; done`,
        `exec ovn-northd --ovnnb-db=${nbDb} --ovnsb-db=${sbDb} --pidfile=${OVN_RUN_DIR}/ovn-northd.pid ${CONSOLE_LOG}`,
    ].join("\n");
    return ovnContainer(model, "ovn-northd", ["/bin/sh", "-c", script]);
}

/** The zone's NB: its server, then the zone's NB_Global cells, named after the pod's node. */
const ZONE_NB_SCRIPT = serverScript(
    NB,
    ["--db-nb-create-insecure-remote=no"],
    [
        nbctl("init"),
        nbctl(
            `set NB_Global . name="$${NODE_NAME_ENV}" options:name="$${NODE_NAME_ENV}" options:northd-backoff-interval-ms=${NORTHD_BACKOFF_MS}`,
        ),
        `echo "zone $${NODE_NAME_ENV}: NB_Global named"`,
    ],
);

/** A container of the image with the OVN directories; the databases and northd need no privilege beyond root's files. */
export function ovnContainer(model: KubeModel, name: string, command: string[], more: Partial<Container> = {}): Container {
    return {
        name,
        image: model.image,
        imagePullPolicy: "IfNotPresent",
        command,
        securityContext: { privileged: false },
        resources: { requests: { cpu: "10m", memory: "64Mi" } },
        volumeMounts: mounts([OVN_RUN_FROM_IMAGE, OVN_DB_DIR]),
        terminationMessagePolicy: "FallbackToLogsOnError",
        ...more,
    };
}

/** The host directories the OVN containers share with the node. */
export const OVN_CONTAINER_DIRS: readonly HostDir[] = [OVN_RUN_FROM_IMAGE, OVN_DB_DIR, OVS_RUN];

/**
 * The node's ovn-controller: privileged, it programs the kernel (conntrack zones, tunnel ports
 * through OVS, netlink). The host's Open vSwitch at its own socket; the Southbound is the one
 * ovnkube-node names as ovn-remote (the zone's, or the centrals').
 */
export function ovnControllerContainer(model: KubeModel): Container {
    return ovnContainer(
        model,
        "ovn-controller",
        ["ovn-controller", `unix:${OVS_RUN.mountPath}/db.sock`, `--pidfile=${OVN_RUN_DIR}/ovn-controller.pid`, ...CONSOLE_LOG.split(" ")],
        { securityContext: { privileged: true }, volumeMounts: mounts([OVN_RUN_FROM_IMAGE, OVS_RUN]) },
    );
}

/** What the ovnkube-node pod runs of OVN: with interconnect the zone's NB, SB and ovn-northd, and always ovn-controller (upstream's names). */
export function ovnContainers(model: KubeModel): Container[] {
    if (model.architecture !== "interconnect") return [ovnControllerContainer(model)];
    return [
        ovnContainer(model, "nb-ovsdb", ["/bin/sh", "-c", ZONE_NB_SCRIPT], { env: [fieldEnv(NODE_NAME_ENV, "spec.nodeName")] }),
        ovnContainer(model, "sb-ovsdb", ["/bin/sh", "-c", serverScript(SB, ["--db-sb-create-insecure-remote=no"])]),
        northdContainer(model, `unix:${NB_SOCKET}`, `unix:${SB_SOCKET}`, `[["name","!=",""]]`),
        ovnControllerContainer(model),
    ];
}
