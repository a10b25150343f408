// Where credentials travel: a service-account token or the program's kubeconfig over plain http,
// registry or repository credentials written into a reference (they end up in every pod spec,
// log and state file), and switches meant for throw-away labs in a stack that is not one.
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

/** Settings that trade safety for convenience: refused unless the stack says it is a lab (`lab: true`). */
const LAB_ONLY: ReadonlyArray<{ path: string; set: (cfg: StackConfigInput) => boolean; why: string }> = [
    {
        path: "ssh.insecureIgnoreHostKey",
        set: (cfg) => cfg.ssh?.insecureIgnoreHostKey === true,
        why: "accepts any host key, so anyone on the path can pose as a host and receive its scripts and secrets",
    },
];

/** Relation: a lab-only switch is on only in a lab. */
export function labOnlyProblems(cfg: StackConfigInput, add: Add): void {
    for (const s of LAB_ONLY)
        if (s.set(cfg) && cfg.lab !== true)
            add(s.path, `${s.why}; pin every nodes[].hostKey, or mark a throw-away stack with \`lab: true\``);
}

/** References that name a registry, repository or server, and so could carry credentials. */
const REFERENCES: ReadonlyArray<{ path: string; value: (cfg: StackConfigInput) => string | undefined }> = [
    { path: "ovnkube.image", value: (cfg) => cfg.ovnkube?.image },
    { path: "ovnkube.crdMirror", value: (cfg) => cfg.ovnkube?.crdMirror },
    { path: "packages.repository.url", value: (cfg) => cfg.packages?.repository?.url },
    { path: "apiServer.url", value: (cfg) => cfg.apiServer.url },
];

/** `user:password@` in a URL's authority, or before an image reference's first `/` (its registry). */
export const hasCredentials = (ref: string): boolean => /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(ref) || /^[^/]*@[^/]*\//.test(ref);

/** The reference with any `user:password@` replaced by `…@`, for messages: credentials are never quoted. */
export const withoutCredentials = (ref: string): string =>
    ref.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, "$1…@").replace(/^[^/:]*(?::[^/]*)?@(?=[^/]*\/)/, "…@");

/** An image reference pins what runs only with a tag or a digest. */
export const hasTagOrDigest = (image: string): boolean => {
    const last = image.slice(image.lastIndexOf("/") + 1);
    return last.includes("@") ? /@sha256:[0-9a-f]{64}$/.test(last) : /:[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/.test(last);
};

/** Relations: no reference carries credentials; the image names a tag or digest. */
export function referenceProblems(cfg: StackConfigInput, add: Add): void {
    for (const r of REFERENCES) {
        const v = r.value(cfg);
        if (v !== undefined && hasCredentials(v))
            add(
                r.path,
                "holds credentials (user:password@), which would be written into pod specs, scripts, logs and the state; give the registry or server its credentials by its own means (an image pull secret, a netrc)",
            );
    }
    const image = cfg.ovnkube?.image;
    if (image !== undefined && !hasCredentials(image) && !hasTagOrDigest(image))
        add(
            "ovnkube.image",
            `"${image}" names no tag or digest, so every node pulls whatever the registry has now; give a tag (:v1.3.0) or a digest (@sha256:…)`,
        );
}

/**
 * Relation: where a token travels (ovnkube's service-account token to the API server, the program's
 * kubeconfig credentials), the transport is TLS, unless the stack is a lab.
 */
export function transportProblems(cfg: StackConfigInput, ovnkubeMode: boolean, kubeconfigServer: string | undefined, add: Add): void {
    if (cfg.lab === true) return;
    if (ovnkubeMode && cfg.apiServer.url.startsWith("http://"))
        add(
            "apiServer.url",
            `${cfg.apiServer.url} is plain http, and ovnkube sends its service-account token on every request: anyone on the path can take it; use the API server's https address (or \`lab: true\` for a throw-away lab)`,
        );
    if (kubeconfigServer?.startsWith("http://"))
        add(
            "kubeconfig",
            `its server ${kubeconfigServer} is plain http, so the program's credentials would travel in clear; use the API server's https address (or \`lab: true\` for a throw-away lab)`,
        );
}
