// Whether `apiServer.url` (what ovnkube is told to join) and `kubeconfig`'s server (where the stack
// writes its objects) are one cluster. A load balancer or a DNS name legitimately gives a cluster
// several addresses, so differing URLs prove nothing: a cluster is known by the uid of its
// kube-system namespace, created once with the cluster and never renamed. Both addresses are asked
// for it with the kubeconfig's own credentials and CA, which any address of the same cluster
// accepts. The read is the only effect here; the judgement is pure.
import * as https from "node:https";
import * as http from "node:http";
import type { KubeCredentials } from "./kubeconfig";

const KUBE_SYSTEM_PATH = "/api/v1/namespaces/kube-system";
const READ_TIMEOUT_MS = 10_000;

/** Two URLs that name one endpoint (scheme, host, port), written differently or not. */
export function sameEndpoint(a: string, b: string): boolean {
    const key = (u: string) => {
        const url = new URL(u);
        return `${url.protocol}//${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
    };
    try {
        return key(a) === key(b);
    } catch {
        return false;
    }
}

/** What asking one address for kube-system's uid gave: the uid, an answer that is no proof, or no answer at all. */
export type UidRead = { uid: string } | { refused: string } | { unreachable: string };

/** Errors of the network itself: the address may well serve the cluster to the nodes, only not to this machine. */
const UNREACHABLE = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "ECONNRESET"]);

/** Why a TLS handshake failed, in the kubeconfig's terms, by Node's error code. */
function tlsFailure(code: string): string {
    if (code === "ERR_TLS_CERT_ALTNAME_INVALID") return "its certificate does not name that address";
    if (code === "CERT_HAS_EXPIRED") return "its certificate has expired";
    if (/SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|CERT_SIGNATURE_FAILURE|CERT_UNTRUSTED/.test(code))
        return "its certificate is not signed by the kubeconfig's CA";
    return `its TLS handshake or HTTP answer failed (${code || "no code"})`;
}

/** GET kube-system at `server` with `creds`' CA and credentials. The token travels in the header only; no error quotes it. */
export function readClusterUid(creds: KubeCredentials, server: string): Promise<UidRead> {
    const url = new URL(KUBE_SYSTEM_PATH, server.replace(/\/*$/, "/"));
    const secure = url.protocol === "https:";
    return new Promise((resolve) => {
        const req = (secure ? https : http).request(
            url,
            {
                method: "GET",
                headers: { Accept: "application/json", ...(creds.token ? { Authorization: `Bearer ${creds.token}` } : {}) },
                ...(secure
                    ? { ca: creds.caPem, cert: creds.certPem, key: creds.keyPem, rejectUnauthorized: !creds.insecureSkipTlsVerify }
                    : {}),
                agent: false,
            },
            (res) => {
                const chunks: Buffer[] = [];
                res.on("data", (c: Buffer) => chunks.push(c));
                res.on("error", (e) => resolve({ unreachable: e.message }));
                res.on("end", () => {
                    if (res.statusCode !== 200)
                        return resolve({ refused: `it answered HTTP ${res.statusCode} to the kubeconfig's credentials` });
                    try {
                        const uid = JSON.parse(Buffer.concat(chunks).toString("utf8"))?.metadata?.uid;
                        resolve(typeof uid === "string" && uid !== "" ? { uid } : { refused: "its kube-system namespace has no uid" });
                    } catch {
                        resolve({ refused: "it answered no Kubernetes object" });
                    }
                });
            },
        );
        req.setTimeout(READ_TIMEOUT_MS, () =>
            req.destroy(Object.assign(new Error(`no answer within ${READ_TIMEOUT_MS} ms`), { code: "ETIMEDOUT" })),
        );
        req.on("error", (e: NodeJS.ErrnoException) =>
            resolve(UNREACHABLE.has(e.code ?? "") ? { unreachable: e.message } : { refused: tlsFailure(e.code ?? "") }),
        );
        req.end();
    });
}

/**
 * The refusal when the two addresses are proven to be two clusters, or when `apiServer.url`
 * answers but not as the kubeconfig's cluster (another CA, credentials it does not know);
 * undefined when they are one, or when either cannot be reached from here (nothing is proven).
 */
export function clusterIdentityRefusal(
    apiServerUrl: string,
    kubeconfigServer: string,
    viaKubeconfig: UidRead,
    viaApiServer: UidRead,
): string | undefined {
    if (!("uid" in viaKubeconfig) || "unreachable" in viaApiServer) return undefined;
    const fix = `set apiServer.url to an address of the API server kubeconfig names, or use the kubeconfig of the cluster at ${apiServerUrl}`;
    if ("refused" in viaApiServer)
        return `apiServer.url ${apiServerUrl} is not proven to be the cluster kubeconfig writes to (${kubeconfigServer}): ${viaApiServer.refused}; ovnkube would join the cluster there while the stack's objects go to the other; ${fix}`;
    if (viaApiServer.uid !== viaKubeconfig.uid)
        return `apiServer.url ${apiServerUrl} is another cluster than kubeconfig's server ${kubeconfigServer} (kube-system uid ${viaApiServer.uid}, not ${viaKubeconfig.uid}): ovnkube would join one cluster while the stack's objects go to the other; ${fix}`;
    return undefined;
}
