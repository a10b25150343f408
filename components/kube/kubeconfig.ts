// Reading a kubeconfig: the current context's server, CA and credentials (token or client
// certificate), as kubectl resolves them. Inline `*-data` fields and file paths (relative to the
// kubeconfig's own directory) are both accepted; exec and auth-provider plugins are not run.
// The program's same-cluster check (./clusterIdentity) and the lab's client read kubeconfigs here.
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";

export interface KubeCredentials {
    /** https://host:port (or http:// for an insecure local server). */
    server: string;
    /** PEM of the CA that signed the server's certificate; undefined = the system's CAs. */
    caPem?: string;
    /** Skip verification of the server's certificate (kubeconfig `insecure-skip-tls-verify`). */
    insecureSkipTlsVerify?: boolean;
    /** Bearer token. Never logged. */
    token?: string;
    /** Client certificate and key (PEM). The key is never logged. */
    certPem?: string;
    keyPem?: string;
    /** The context the credentials come from, for messages. */
    context: string;
}

interface RawCluster {
    server?: string;
    "certificate-authority"?: string;
    "certificate-authority-data"?: string;
    "insecure-skip-tls-verify"?: boolean;
}

interface RawUser {
    token?: string;
    tokenFile?: string;
    "client-certificate"?: string;
    "client-certificate-data"?: string;
    "client-key"?: string;
    "client-key-data"?: string;
    exec?: unknown;
    "auth-provider"?: unknown;
}

interface RawContext {
    cluster?: string;
    user?: string;
}

interface RawKubeconfig {
    "current-context"?: string;
    clusters?: Array<{ name: string; cluster?: RawCluster }>;
    users?: Array<{ name: string; user?: RawUser }>;
    contexts?: Array<{ name: string; context?: RawContext }>;
}

export interface KubeconfigOptions {
    /** Context to use instead of current-context. */
    context?: string;
    /** Directory against which relative file paths resolve (kubectl: the kubeconfig's directory). */
    baseDir?: string;
}

const base64 = (s: string) => Buffer.from(s, "base64").toString("utf8");

function pick<T>(list: ReadonlyArray<{ name: string }> | undefined, name: string, field: string, what: string): T {
    const found = (list ?? []).find((e) => e.name === name) as Record<string, unknown> | undefined;
    if (!found || typeof found[field] !== "object" || found[field] === null) {
        const known = (list ?? []).map((e) => e.name).join(", ") || "none";
        throw new Error(`kubeconfig: no ${what} named ${JSON.stringify(name)} (${what}s: ${known})`);
    }
    return found[field] as T;
}

/** Inline data wins over a file, as in kubectl; a file path is read relative to baseDir. */
function material(data: string | undefined, file: string | undefined, baseDir: string, what: string): string | undefined {
    if (data) return base64(data);
    if (!file) return undefined;
    const full = path.resolve(baseDir, file);
    try {
        return fs.readFileSync(full, "utf8");
    } catch (e) {
        throw new Error(`kubeconfig: cannot read the ${what} file ${full}: ${(e as Error).message}`);
    }
}

/** Parses kubeconfig text (YAML or JSON) into the credentials of one context. */
export function parseKubeconfig(text: string, opts: KubeconfigOptions = {}): KubeCredentials {
    let raw: RawKubeconfig;
    try {
        raw = (YAML.parse(text) ?? {}) as RawKubeconfig;
    } catch (e) {
        throw new Error(`kubeconfig is not valid YAML: ${(e as Error).message}`);
    }
    if (typeof raw !== "object" || Array.isArray(raw)) throw new Error("kubeconfig is not a YAML mapping");
    const contextName = opts.context ?? raw["current-context"];
    if (!contextName) throw new Error("kubeconfig has no current-context: set one or name a context");
    const baseDir = opts.baseDir ?? process.cwd();
    const context = pick<RawContext>(raw.contexts, contextName, "context", "context");
    if (!context.cluster) throw new Error(`kubeconfig: context ${JSON.stringify(contextName)} names no cluster`);
    const cluster = pick<RawCluster>(raw.clusters, context.cluster, "cluster", "cluster");
    if (!cluster.server || !/^https?:\/\/[^/]+/.test(cluster.server)) {
        throw new Error(
            `kubeconfig: cluster ${JSON.stringify(context.cluster)} has no https:// or http:// server (got ${JSON.stringify(cluster.server)})`,
        );
    }
    const user: RawUser = context.user ? pick<RawUser>(raw.users, context.user, "user", "user") : {};
    if (user.exec || user["auth-provider"]) {
        throw new Error(
            `kubeconfig: user ${JSON.stringify(context.user)} uses an exec or auth-provider plugin, which this client does not run: use a token or a client certificate`,
        );
    }
    const token = user.token ?? (user.tokenFile ? material(undefined, user.tokenFile, baseDir, "token")?.trim() : undefined);
    const certPem = material(user["client-certificate-data"], user["client-certificate"], baseDir, "client certificate");
    const keyPem = material(user["client-key-data"], user["client-key"], baseDir, "client key");
    if (Boolean(certPem) !== Boolean(keyPem)) {
        throw new Error(
            `kubeconfig: user ${JSON.stringify(context.user)} has a client certificate without its key, or a key without its certificate`,
        );
    }
    return {
        server: cluster.server.replace(/\/+$/, ""),
        caPem: material(cluster["certificate-authority-data"], cluster["certificate-authority"], baseDir, "certificate authority"),
        insecureSkipTlsVerify: cluster["insecure-skip-tls-verify"] === true,
        token,
        certPem,
        keyPem,
        context: contextName,
    };
}
