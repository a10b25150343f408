// Naming of everything a local cluster creates. Every kernel object carries the prefix `lc-<id>`
// so that `down` can find all of it by name alone, even without the state file, and never
// touches anything that is not ours.
import * as path from "node:path";
import { PROJECT_ROOT } from "../projectRoot";

export const DEFAULT_ID = "local";
export const DEFAULT_HOSTS = 3;
export const MAX_HOSTS = 64;

/** Lower-case letter then up to 7 letters or digits: keeps `lc-<id>-<n>` within the 15 characters of a Linux interface name, and no `-` so prefixes never nest. */
const ID_PATTERN = /^[a-z][a-z0-9]{0,7}$/;

export function checkId(id: string): string {
    if (!ID_PATTERN.test(id)) {
        throw new Error(
            `invalid local cluster id ${JSON.stringify(id)}: use a lower-case letter followed by up to 7 lower-case letters or digits`,
        );
    }
    return id;
}

export { PROJECT_ROOT };

/** Where a cluster's state (cluster.json, keys, per-host directories) lives. */
export function stateDir(id: string): string {
    return path.join(PROJECT_ROOT, ".local", checkId(id));
}

/** The name of host `index` (0-based): also its hostname and its Kubernetes node name. */
export function hostName(index: number): string {
    return `node${index + 1}`;
}

export interface ClusterNames {
    /** Every network namespace and root-side link of this cluster starts with this. */
    prefix: string;
    bridge: string;
    externalNetns: string;
    externalVeth: string;
    hostNetns(host: string): string;
    hostVeth(index: number): string;
    podNetns(host: string, namespace: string, pod: string): string;
}

export function clusterNames(id: string): ClusterNames {
    const base = `lc-${checkId(id)}`;
    return {
        prefix: `${base}-`,
        bridge: base,
        externalNetns: `${base}-ext`,
        externalVeth: `${base}-x`,
        hostNetns: (host) => `${base}-${host}`,
        hostVeth: (index) => `${base}-${index + 1}`,
        // `_` cannot occur in a node, namespace or pod name, so the parts stay unambiguous.
        podNetns: (host, namespace, pod) => `${base}-${host}_${namespace}_${pod}`,
    };
}
