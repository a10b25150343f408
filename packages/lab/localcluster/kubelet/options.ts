// What one kubelet stand-in is told: which node it is, where its credentials are, which host it
// runs for, and the kubelet's usual directories. Read from a JSON file (never from argv: the file
// names a kubeconfig that holds a private key) and checked before anything starts.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULT_POD_LOGS_DIR } from "./logs";
import { forbiddenLabelReason } from "./nodeObject";
import { PATTERNS } from "@ovn-kubernetes-as-code/cluster/values";

export interface KubeletOptions {
    /** Node name: a lower-case DNS-1123 label (the host's name in the local cluster). */
    nodeName: string;
    /** Kubeconfig of user system:node:<nodeName> (group system:nodes). */
    kubeconfigPath: string;
    /** The host's holder process: its mount and UTS namespaces are the host's. */
    holderPid: number;
    /** The node's InternalIP: the host's address on the underlay (its tunnel address). */
    internalIP: string;
    /** Extra Node labels; only those a kubelet may set on itself (see forbiddenLabelReason). */
    labels?: Record<string, string>;
    /** capacity/allocatable; default: this machine's CPUs and memory, 110 pods. */
    capacity?: Record<string, string>;
    /** Paths in the host. Defaults are the kubelet's: /var/lib/kubelet, /var/log/pods, /etc/cni/net.d, [/opt/cni/bin]. */
    rootDir?: string;
    podLogsDir?: string;
    cniConfDir?: string;
    cniBinDirs?: string[];
    /** Image reference → directory in the host holding the image's files (bound over the host root per container). */
    images?: Record<string, string>;
}

export type KubeletConfig = Required<Omit<KubeletOptions, "capacity">> & { capacity?: Record<string, string> };

export const DEFAULT_ROOT_DIR = "/var/lib/kubelet";
export const DEFAULT_CNI_CONF_DIR = "/etc/cni/net.d";
export const DEFAULT_CNI_BIN_DIRS = ["/opt/cni/bin"];

/** Label keys: optional DNS prefix, then a name (Kubernetes' qualified name). */
const LABEL_KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

function absolute(value: unknown, what: string): string {
    if (typeof value !== "string" || !path.posix.isAbsolute(value) || value.includes("\0")) {
        throw new Error(`kubelet option ${what}: ${JSON.stringify(value)} is not an absolute path`);
    }
    return path.posix.normalize(value);
}

/** Checks the options and fills in the defaults; every error names the option and the fix. */
export function resolveOptions(o: KubeletOptions): KubeletConfig {
    if (!PATTERNS.nodeName.re.test(o.nodeName ?? "")) throw new Error(`kubelet option nodeName: ${JSON.stringify(o.nodeName)} is not a lower-case DNS-1123 label`);
    if (!Number.isInteger(o.holderPid) || o.holderPid <= 1) throw new Error(`kubelet option holderPid: ${JSON.stringify(o.holderPid)} is not a process id`);
    if (!PATTERNS.ipv4.re.test(o.internalIP ?? "")) throw new Error(`kubelet option internalIP: ${JSON.stringify(o.internalIP)} is not an IPv4 address`);
    const labels = o.labels ?? {};
    for (const [k, v] of Object.entries(labels)) {
        if (!LABEL_KEY.test(k) || !LABEL_VALUE.test(v)) throw new Error(`kubelet option labels: ${k}=${v} is not a valid label`);
        const why = forbiddenLabelReason(k);
        if (why) throw new Error(`kubelet option labels: ${k}: ${why}`);
    }
    const cniBinDirs = (o.cniBinDirs ?? DEFAULT_CNI_BIN_DIRS).map((d, i) => absolute(d, `cniBinDirs[${i}]`));
    if (cniBinDirs.some((d) => d.includes(":"))) throw new Error("kubelet option cniBinDirs: a directory must not contain ':' (CNI_PATH separator)");
    const images = Object.fromEntries(Object.entries(o.images ?? {}).map(([ref, dir]) => [ref, absolute(dir, `images[${ref}]`)]));
    return {
        nodeName: o.nodeName,
        kubeconfigPath: o.kubeconfigPath,
        holderPid: o.holderPid,
        internalIP: o.internalIP,
        labels,
        capacity: o.capacity,
        rootDir: absolute(o.rootDir ?? DEFAULT_ROOT_DIR, "rootDir"),
        podLogsDir: absolute(o.podLogsDir ?? DEFAULT_POD_LOGS_DIR, "podLogsDir"),
        cniConfDir: absolute(o.cniConfDir ?? DEFAULT_CNI_CONF_DIR, "cniConfDir"),
        cniBinDirs,
        images,
    };
}

/** Reads and checks an options file. */
export function loadOptions(file: string): KubeletConfig {
    let raw: KubeletOptions;
    try {
        raw = JSON.parse(fs.readFileSync(file, "utf8")) as KubeletOptions;
    } catch (e) {
        throw new Error(`cannot read kubelet options from ${file}: ${(e as Error).message}`);
    }
    if (!raw.kubeconfigPath || !fs.existsSync(raw.kubeconfigPath)) {
        throw new Error(`kubelet option kubeconfigPath: ${JSON.stringify(raw.kubeconfigPath)} does not exist (the node's kubeconfig, e.g. from the control plane's nodeCredentials(name))`);
    }
    return resolveOptions(raw);
}
