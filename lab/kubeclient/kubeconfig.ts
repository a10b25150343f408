// Kubeconfig files of the lab: read (the parser is the package's, kube/kubeconfig.ts) and written.
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { parseKubeconfig, type KubeconfigOptions, type KubeCredentials } from "@ovn-kubernetes-as-code/cluster/kube";

export { parseKubeconfig };
export type { KubeconfigOptions, KubeCredentials };

/** Reads a kubeconfig file; relative paths inside it resolve against its directory. */
export function loadKubeconfig(file: string, opts: Omit<KubeconfigOptions, "baseDir"> = {}): KubeCredentials {
    let text: string;
    try {
        text = fs.readFileSync(file, "utf8");
    } catch (e) {
        throw new Error(`cannot read kubeconfig ${file}: ${(e as Error).message}`);
    }
    return parseKubeconfig(text, { ...opts, baseDir: path.dirname(path.resolve(file)) });
}

export interface KubeconfigUser {
    token?: string;
    certPem?: string;
    keyPem?: string;
    /** A file holding the client certificate and key (kubeadm's kubelet-client-current.pem), named instead of inlined. */
    certKeyFile?: string;
}

/**
 * A kubeconfig with one cluster, one user and one context, credentials inline: what the local
 * control plane hands to its users (admin, kubelets, ovnkube). Contains secrets: write it 0600.
 */
export function buildKubeconfig(opts: {
    server: string;
    caPem: string;
    user: string;
    credentials: KubeconfigUser;
    clusterName?: string;
}): string {
    const clusterName = opts.clusterName ?? "local";
    const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
    const user: Record<string, string> = {};
    if (opts.credentials.token) user.token = opts.credentials.token;
    if (opts.credentials.certPem) user["client-certificate-data"] = b64(opts.credentials.certPem);
    if (opts.credentials.keyPem) user["client-key-data"] = b64(opts.credentials.keyPem);
    if (opts.credentials.certKeyFile) user["client-certificate"] = user["client-key"] = opts.credentials.certKeyFile;
    const context = `${opts.user}@${clusterName}`;
    return YAML.stringify({
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: clusterName, cluster: { server: opts.server, "certificate-authority-data": b64(opts.caPem) } }],
        users: [{ name: opts.user, user }],
        contexts: [{ name: context, context: { cluster: clusterName, user: opts.user } }],
        "current-context": context,
    });
}
