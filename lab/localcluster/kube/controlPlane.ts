// A real Kubernetes control plane for a local cluster: etcd, kube-apiserver,
// kube-controller-manager and kube-scheduler (the lab's v1.36.2 builds), in a network namespace
// of their own on the cluster's underlay, with a CA-based PKI, Node,RBAC authorization and the
// NodeRestriction admission plugin, so that the program under test and the kubelets meet
// the API server exactly as on a real cluster.
import * as fs from "node:fs";
import { KubeClient, isNotFound, pollUntil } from "../../kubeclient";
import { isInNetns, isLiveProcess, killNamespaceProcesses, netnsInode } from "../namespaces";
import { clusterIpFamily, type LocalCluster } from "../state";
import { controlPlanePki, nodeCredentials, writeKubeconfig, ADMIN_USER, type NodeCredentials } from "./credentials";
import { deadDaemon, startInNetns } from "./daemon";
import { apiServerArgv, controllerManagerArgv, etcdArgv, schedulerArgv, type ControlPlaneFiles } from "./flags";
import { KUBERNETES_RELEASE } from "../labReleases";
import { labBinaries } from "./labBinaries";
import { apiServerUrl, controlPlaneLayout, type ControlPlaneLayout } from "./layout";
import { controlPlaneAddress, ipv6Twin } from "../addressing";
import { perFamily } from "../ipFamily";
import { createControlPlaneNetwork, deleteControlPlaneNetwork } from "./network";
import { readCa, type IssuedCert } from "./pki";

export const COMPONENTS = ["etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"] as const;
export type Component = (typeof COMPONENTS)[number];

/** Debian's etcd-server package. */
const ETCD = "/usr/bin/etcd";

export interface ControlPlaneOptions {
    /** The stack's serviceSubnet, one range per family (primary first): the API server's --service-cluster-ip-range. */
    serviceSubnets: readonly string[];
    /** Progress lines (default: console.log). */
    log?: (line: string) => void;
    /** Bound on the wait for /readyz and the default ServiceAccount (default 120 s: a loaded 2-core machine). */
    readyTimeoutMs?: number;
}

export interface ControlPlane {
    /** https://<address>:6443, reachable from this machine and from every host of the cluster. */
    apiServerUrl: string;
    address: string;
    netns: string;
    /** cluster-admin (group system:masters) by client certificate; the file is 0600. */
    adminKubeconfig: { path: string; content: string };
    caPem: string;
    pids: Record<Component, number>;
    /** A kubelet's credentials (user system:node:<name>, group system:nodes), issued on first use. */
    nodeCredentials(name: string): Promise<NodeCredentials>;
}

/** What is kept in .local/<id>/k8s/control-plane.json for later commands. */
interface SavedControlPlane {
    apiServerUrl: string;
    address: string;
    /** Its address in each family (clusters with IPv6 only). */
    addresses?: string[];
    serviceSubnet: string;
    pids: Record<Component, number>;
}

/** The command line of each component. */
async function componentArgv(
    layout: ControlPlaneLayout,
    addresses: readonly string[],
    serviceSubnets: readonly string[],
    files: ControlPlaneFiles,
): Promise<Record<Component, string[]>> {
    if (!fs.existsSync(ETCD)) throw new Error(`${ETCD} not found: apt-get install -y etcd-server`);
    const bin = await labBinaries(["kube-apiserver", "kube-controller-manager", "kube-scheduler"], KUBERNETES_RELEASE);
    return {
        etcd: etcdArgv(ETCD, layout.etcdDataDir),
        "kube-apiserver": apiServerArgv(bin["kube-apiserver"], files, { addresses }, serviceSubnets),
        "kube-controller-manager": controllerManagerArgv(bin["kube-controller-manager"], files),
        "kube-scheduler": schedulerArgv(bin["kube-scheduler"], files),
    };
}

/** The control plane's IPv4 address and, on an IPv6 underlay, its twin: what its eth0 carries. */
function underlayAddresses(cluster: LocalCluster): { address: string; prefixLen: number }[] {
    const v4 = controlPlaneAddress(cluster.subnet);
    const v6 = cluster.ipv6 && { address: ipv6Twin(cluster.subnet, v4), prefixLen: cluster.ipv6.prefixLen };
    return [{ address: v4, prefixLen: cluster.prefixLen }, ...(v6 ? [v6] : [])];
}

/** The control plane's address in each family the cluster runs, the primary first (the API server's URL). */
export function controlPlaneAddresses(cluster: LocalCluster): string[] {
    const [v4, v6] = underlayAddresses(cluster).map((a) => a.address);
    const family = clusterIpFamily(cluster);
    return family === "ipv4" ? [v4] : perFamily(family, v4, v6);
}

/** Elapsed seconds since `started`, for progress lines. */
const since = (started: number) => `${((Date.now() - started) / 1000).toFixed(1)} s`;

/** Waits, bounded, until the API server's /readyz answers ok; `giveUp` names a daemon that died meanwhile. */
function apiServerReady(admin: KubeClient, layout: ControlPlaneLayout, timeoutMs: number, giveUp: () => string | undefined): Promise<true> {
    return pollUntil(
        async () => ((await admin.transport.requestText("GET", "/readyz", { timeoutMs: 5000 })).trim() === "ok" ? true : undefined),
        { timeoutMs, intervalMs: 250, what: `${admin.server}/readyz to answer ok (see ${layout.log("kube-apiserver")})`, giveUp },
    );
}

/**
 * Starts the components and waits, bounded, until they serve. etcd and the API server first;
 * kube-controller-manager and kube-scheduler only once /readyz is ok, because they exit when the
 * bootstrap RBAC policy that lets them read their configuration is not there yet (on kubeadm
 * clusters the kubelet restarts them; here nothing would).
 */
async function startAndWait(
    layout: ControlPlaneLayout,
    argv: Record<Component, string[]>,
    admin: KubeClient,
    timeoutMs: number,
    log: (line: string) => void,
): Promise<Record<Component, number>> {
    const started = Date.now();
    const deadline = started + timeoutMs;
    const pids: Partial<Record<Component, number>> = {};
    const start = (c: Component) => (pids[c] = startInNetns(layout.netns, argv[c], layout.log(c)));
    const giveUp = () => deadDaemon(Object.fromEntries(Object.entries(pids).map(([c, pid]) => [c, { pid: pid!, log: layout.log(c) }])));
    const left = () => Math.max(1000, deadline - Date.now());

    start("etcd");
    start("kube-apiserver");
    log(`etcd (pid ${pids.etcd}) and kube-apiserver (pid ${pids["kube-apiserver"]}) started in ${layout.netns}; logs in ${layout.dir}`);
    await apiServerReady(admin, layout, left(), giveUp);
    log(`kube-apiserver ready at ${admin.server} after ${since(started)}`);

    start("kube-controller-manager");
    start("kube-scheduler");
    log(`kube-controller-manager (pid ${pids["kube-controller-manager"]}) and kube-scheduler (pid ${pids["kube-scheduler"]}) started`);
    // The ServiceAccount controller makes it; Pods are refused until it exists.
    await pollUntil(
        async () => {
            try {
                return await admin.get({ apiVersion: "v1", kind: "ServiceAccount", namespace: "default", name: "default" });
            } catch (e) {
                if (isNotFound(e)) return undefined;
                throw e;
            }
        },
        { timeoutMs: left(), intervalMs: 500, what: `the default ServiceAccount (see ${layout.log("kube-controller-manager")})`, giveUp },
    );
    log(`default ServiceAccount present after ${since(started)}`);
    return pids as Record<Component, number>;
}

function controlPlaneOf(layout: ControlPlaneLayout, saved: SavedControlPlane, adminContent: string, ca: IssuedCert): ControlPlane {
    return {
        apiServerUrl: saved.apiServerUrl,
        address: saved.address,
        netns: layout.netns,
        adminKubeconfig: { path: layout.adminKubeconfig, content: adminContent },
        caPem: ca.certPem,
        pids: saved.pids,
        nodeCredentials: (name) => nodeCredentials(layout, ca, saved.apiServerUrl, name),
    };
}

/**
 * Starts the control plane of a running local cluster and waits (bounded) until the API server
 * is ready and kube-controller-manager has made the `default` ServiceAccount. On failure nothing
 * of it is left running and the error carries the failing component's log tail.
 */
export async function startControlPlane(cluster: LocalCluster, opts: ControlPlaneOptions): Promise<ControlPlane> {
    const log = opts.log ?? ((line: string) => console.log(line));
    const layout = controlPlaneLayout(cluster.id);
    if (netnsInode(layout.netns) !== undefined) {
        throw new Error(
            `the Kubernetes control plane of local cluster ${cluster.id} already runs (namespace ${layout.netns}): stop it first`,
        );
    }
    const addresses = controlPlaneAddresses(cluster);
    const [address] = addresses;
    const server = apiServerUrl(address);
    try {
        fs.mkdirSync(layout.dir, { recursive: true, mode: 0o700 });
        const pki = await controlPlanePki(layout, cluster.id, addresses, opts.serviceSubnets, server);
        const adminContent = writeKubeconfig(layout.adminKubeconfig, server, pki.ca.certPem, ADMIN_USER.name, pki.admin);
        const argv = await componentArgv(layout, addresses, opts.serviceSubnets, pki.files);
        fs.mkdirSync(layout.etcdDataDir, { recursive: true, mode: 0o700 });
        await createControlPlaneNetwork(layout, cluster.bridge, underlayAddresses(cluster));
        const admin = KubeClient.fromKubeconfig(adminContent);
        let pids: Record<Component, number>;
        try {
            pids = await startAndWait(layout, argv, admin, opts.readyTimeoutMs ?? 120_000, log);
        } finally {
            admin.close();
        }
        const saved: SavedControlPlane = {
            apiServerUrl: server,
            address,
            ...(addresses.length > 1 && { addresses: [...addresses] }),
            serviceSubnet: opts.serviceSubnets.join(","),
            pids,
        };
        fs.writeFileSync(layout.stateFile, JSON.stringify(saved, null, 2) + "\n", { mode: 0o600 });
        return controlPlaneOf(layout, saved, adminContent, pki.ca);
    } catch (e) {
        // Keep the logs (the error points at them); end the processes and free the address.
        await killNamespaceProcesses([layout.netns]).catch(() => undefined);
        await deleteControlPlaneNetwork(layout).catch(() => undefined);
        throw e;
    }
}

/** The running control plane of a local cluster, as startControlPlane returned it; throws when it does not run. */
export function loadControlPlane(cluster: LocalCluster): ControlPlane {
    const layout = controlPlaneLayout(cluster.id);
    if (!fs.existsSync(layout.stateFile)) {
        throw new Error(`local cluster ${cluster.id} has no Kubernetes control plane (no ${layout.stateFile}): start it first`);
    }
    const saved = JSON.parse(fs.readFileSync(layout.stateFile, "utf8")) as SavedControlPlane;
    if (!isInNetns(saved.pids["kube-apiserver"], layout.netns)) {
        throw new Error(
            `the Kubernetes control plane of local cluster ${cluster.id} is not running (kube-apiserver ${saved.pids["kube-apiserver"]} gone): stop and start it again`,
        );
    }
    const ca = readCa(layout.pkiDir);
    return controlPlaneOf(layout, saved, fs.readFileSync(layout.adminKubeconfig, "utf8"), ca);
}

/**
 * Ends every process of the control plane (everything in its namespace), removes the namespace,
 * its veth and its files (etcd data, PKI, logs). Safe to run when it is not running. The
 * cluster's `down` does the same as part of removing the whole cluster.
 */
export async function stopControlPlane(id: string): Promise<void> {
    const layout = controlPlaneLayout(id);
    await killNamespaceProcesses([layout.netns]);
    await deleteControlPlaneNetwork(layout);
    fs.rmSync(layout.dir, { recursive: true, force: true });
}

/**
 * kube-apiserver restarted as a crash and its supervisor would: SIGKILL, then the same command
 * line again (read from the process); resolves, bounded, once /readyz answers ok, with how long
 * the API server was gone.
 */
export async function restartApiServer(cluster: LocalCluster, timeoutMs = 120_000): Promise<{ downMs: number }> {
    const plane = loadControlPlane(cluster);
    const layout = controlPlaneLayout(cluster.id);
    const pid = plane.pids["kube-apiserver"];
    // NUL-separated, with one after the last argument.
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
    const killed = Date.now();
    process.kill(pid, "SIGKILL");
    // Its socket closes at the exit, before PID 1 reaps it: the new one can bind at once.
    await pollUntil(async () => (isLiveProcess(pid) ? undefined : true), {
        timeoutMs: 10_000,
        intervalMs: 50,
        what: `kube-apiserver ${pid} to exit`,
    });
    const restarted = startInNetns(layout.netns, argv, layout.log("kube-apiserver"));
    const saved = JSON.parse(fs.readFileSync(layout.stateFile, "utf8")) as SavedControlPlane;
    saved.pids["kube-apiserver"] = restarted;
    fs.writeFileSync(layout.stateFile, JSON.stringify(saved, null, 2) + "\n", { mode: 0o600 });
    const admin = KubeClient.fromKubeconfig(plane.adminKubeconfig.content);
    try {
        await apiServerReady(admin, layout, timeoutMs, () =>
            deadDaemon({ "kube-apiserver": { pid: restarted, log: layout.log("kube-apiserver") } }),
        );
    } finally {
        admin.close();
    }
    return { downMs: Date.now() - killed };
}
