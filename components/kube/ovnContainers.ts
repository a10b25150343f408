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
import { NODE_NAME_ENV } from "./ovnkubeArgs";
import type { Container, EnvVar } from "./objectTypes";

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

/**
 * The nb-ovsdb container's script: the server in the background, the zone's cells once it answers,
 * then the server's own exit status. TERM (the pod's end) is passed on to the server. Fixed text:
 * the zone is the pod's node name, from the environment.
 */
const NB_SCRIPT = [
    "set -eu",
    `${OVN_CTL} run_nb_ovsdb --db-nb-file=${dbFile(NB_DB_FILE)} --db-nb-create-insecure-remote=no --ovn-nb-log="${CONSOLE_LOG}" &`,
    "server=$!",
    `trap 'kill -TERM "$server"' TERM INT`,
    `nbctl() { ovn-nbctl --db=unix:${NB_SOCKET} --timeout=10 "$@"; }`,
    "tries=0",
    `until ovsdb-client --timeout=2 list-dbs unix:${NB_SOCKET} >/dev/null 2>&1; do`,
    '    kill -0 "$server"; tries=$((tries + 1)); [ "$tries" -le 120 ] || { echo "NB did not answer within 60 s" >&2; exit 1; }; sleep 0.5',
    "done",
    "nbctl init",
    `nbctl set NB_Global . name="$${NODE_NAME_ENV}" options:name="$${NODE_NAME_ENV}" options:northd-backoff-interval-ms=${NORTHD_BACKOFF_MS}`,
    `echo "zone $${NODE_NAME_ENV}: NB_Global named"`,
    'wait "$server"',
].join("\n");

/**
 * ovn-northd's container script: northd once the zone is named, so that the NB_Global row is the
 * nb-ovsdb container's (northd creates the row when it finds none). The wait is a read-only select.
 */
const NORTHD_SCRIPT = [
    "set -eu",
    `named='["OVN_Northbound",{"op":"select","table":"NB_Global","where":[["name","!=",""]],"columns":["name"]}]'`,
    `until ovsdb-client --timeout=2 transact unix:${NB_SOCKET} "$named" 2>/dev/null | grep -q '"name"'; do sleep 0.5; done`,
    `exec ovn-northd --ovnnb-db=unix:${NB_SOCKET} --ovnsb-db=unix:${SB_SOCKET} --pidfile=${OVN_RUN_DIR}/ovn-northd.pid ${CONSOLE_LOG}`,
].join("\n");

const nodeNameEnv: EnvVar = { name: NODE_NAME_ENV, valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } };

function container(model: KubeModel, name: string, command: string[], more: Partial<Container> = {}): Container {
    return {
        name,
        image: model.image,
        imagePullPolicy: "IfNotPresent",
        command,
        // The databases and northd need no privilege beyond root's files; ovn-controller overrides it.
        securityContext: { privileged: false },
        resources: { requests: { cpu: "10m", memory: "64Mi" } },
        volumeMounts: mounts([OVN_RUN_FROM_IMAGE, OVN_DB_DIR]),
        terminationMessagePolicy: "FallbackToLogsOnError",
        ...more,
    };
}

/** The host directories the OVN containers share with the node. */
export const OVN_CONTAINER_DIRS: readonly HostDir[] = [OVN_RUN_FROM_IMAGE, OVN_DB_DIR, OVS_RUN];

/** The zone's NB, SB, ovn-northd and the node's ovn-controller, in upstream's container names. */
export function ovnContainers(model: KubeModel): Container[] {
    const log = CONSOLE_LOG.split(" ");
    return [
        container(model, "nb-ovsdb", ["/bin/sh", "-c", NB_SCRIPT], { env: [nodeNameEnv] }),
        container(model, "sb-ovsdb", [
            OVN_CTL,
            "run_sb_ovsdb",
            `--db-sb-file=${dbFile(SB_DB_FILE)}`,
            "--db-sb-create-insecure-remote=no",
            `--ovn-sb-log=${CONSOLE_LOG}`,
        ]),
        container(model, "ovn-northd", ["/bin/sh", "-c", NORTHD_SCRIPT]),
        // Privileged: it programs the kernel (conntrack zones, tunnel ports through OVS, netlink).
        // The host's Open vSwitch at its own socket; the SB is the zone's, which ovnkube-node names
        // as ovn-remote.
        container(
            model,
            "ovn-controller",
            ["ovn-controller", `unix:${OVS_RUN.mountPath}/db.sock`, `--pidfile=${OVN_RUN_DIR}/ovn-controller.pid`, ...log],
            { securityContext: { privileged: true }, volumeMounts: mounts([OVN_RUN_FROM_IMAGE, OVS_RUN]) },
        ),
    ];
}
