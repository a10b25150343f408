// What a host's registration agent is told: which node it is, where its credentials are and which
// host it runs for. Read from a JSON file (never from argv: the file names a kubeconfig that holds
// a private key) and checked before anything starts.
import * as fs from "node:fs";
import { forbiddenLabelReason } from "./nodeObject";
import { PATTERNS } from "@ovn-kubernetes-as-code/cluster/values";

export interface RegistrationOptions {
    /** Node name: a lower-case DNS-1123 label (the host's name in the local cluster). */
    nodeName: string;
    /** Kubeconfig of user system:node:<nodeName> (group system:nodes). */
    kubeconfigPath: string;
    /** The host's holder process: the host's files (os-release, machine-id) are read through it. */
    holderPid: number;
    /** The node's InternalIP: the host's address on the underlay (its tunnel address). */
    internalIP: string;
    /** Extra Node labels; only those a kubelet may set on itself (see forbiddenLabelReason). */
    labels?: Record<string, string>;
    /** capacity/allocatable; default: this machine's CPUs and memory, 110 pods. */
    capacity?: Record<string, string>;
}

export type RegistrationConfig = Required<Omit<RegistrationOptions, "capacity">> & { capacity?: Record<string, string> };

/** Label keys: optional DNS prefix, then a name (Kubernetes' qualified name). */
const LABEL_KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

/** Checks the options; every error names the option and the fix. */
export function resolveOptions(o: RegistrationOptions): RegistrationConfig {
    if (!PATTERNS.nodeName.re.test(o.nodeName ?? ""))
        throw new Error(`registration option nodeName: ${JSON.stringify(o.nodeName)} is not a lower-case DNS-1123 label`);
    if (!Number.isInteger(o.holderPid) || o.holderPid <= 1)
        throw new Error(`registration option holderPid: ${JSON.stringify(o.holderPid)} is not a process id`);
    if (!PATTERNS.ipv4.re.test(o.internalIP ?? ""))
        throw new Error(`registration option internalIP: ${JSON.stringify(o.internalIP)} is not an IPv4 address`);
    const labels = o.labels ?? {};
    for (const [k, v] of Object.entries(labels)) {
        if (!LABEL_KEY.test(k) || !LABEL_VALUE.test(v)) throw new Error(`registration option labels: ${k}=${v} is not a valid label`);
        const why = forbiddenLabelReason(k);
        if (why) throw new Error(`registration option labels: ${k}: ${why}`);
    }
    return {
        nodeName: o.nodeName,
        kubeconfigPath: o.kubeconfigPath,
        holderPid: o.holderPid,
        internalIP: o.internalIP,
        labels,
        capacity: o.capacity,
    };
}

/** Reads and checks an options file. */
export function loadOptions(file: string): RegistrationConfig {
    let raw: RegistrationOptions;
    try {
        raw = JSON.parse(fs.readFileSync(file, "utf8")) as RegistrationOptions;
    } catch (e) {
        throw new Error(`cannot read registration options from ${file}: ${(e as Error).message}`);
    }
    if (!raw.kubeconfigPath || !fs.existsSync(raw.kubeconfigPath)) {
        throw new Error(
            `registration option kubeconfigPath: ${JSON.stringify(raw.kubeconfigPath)} does not exist (the node's kubeconfig, e.g. from the control plane's nodeCredentials(name))`,
        );
    }
    return resolveOptions(raw);
}
