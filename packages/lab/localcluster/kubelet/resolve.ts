// What a container is started with: its environment and its argv, resolved from the pod spec as
// the kubelet does (pkg/kubelet/kubelet_pods.go makeEnvironmentVariables,
// pkg/kubelet/container ExpandContainerCommandAndArgs), plus what a container runtime adds
// (PATH when the image sets none, HOSTNAME). Pure: the ConfigMaps, Secrets and service variables
// are fetched by the caller.
import { expand, lookupIn } from "./expand";
import { configError } from "./errors";
import { PodAddresses, fieldRefValue } from "./fieldRef";
import type { ConfigMap, Container, Pod, Secret } from "./types";

/** The objects of the pod's namespace that env and volumes refer to; undefined = not found. */
export interface PodObjects {
    configMaps: ReadonlyMap<string, ConfigMap | undefined>;
    secrets: ReadonlyMap<string, Secret | undefined>;
}

export interface EnvContext extends PodAddresses {
    objects: PodObjects;
    /** Service variables (serviceEnv.ts). */
    services: ReadonlyMap<string, string>;
}

/** The PATH containerd gives a process whose image sets none (we have no image config). */
export const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** Names of the ConfigMaps and Secrets a pod refers to in env, envFrom and volumes. */
export function referencedObjects(pod: Pod): { configMaps: Set<string>; secrets: Set<string> } {
    const configMaps = new Set<string>();
    const secrets = new Set<string>();
    const spec = pod.spec;
    for (const c of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) {
        for (const f of c.envFrom ?? []) {
            if (f.configMapRef?.name) configMaps.add(f.configMapRef.name);
            if (f.secretRef?.name) secrets.add(f.secretRef.name);
        }
        for (const e of c.env ?? []) {
            if (e.valueFrom?.configMapKeyRef?.name) configMaps.add(e.valueFrom.configMapKeyRef.name);
            if (e.valueFrom?.secretKeyRef?.name) secrets.add(e.valueFrom.secretKeyRef.name);
        }
    }
    for (const v of spec?.volumes ?? []) {
        if (v.configMap?.name) configMaps.add(v.configMap.name);
        if (v.secret?.secretName) secrets.add(v.secret.secretName);
        for (const s of v.projected?.sources ?? []) {
            if (s.configMap?.name) configMaps.add(s.configMap.name);
            if (s.secret?.name) secrets.add(s.secret.name);
        }
    }
    return { configMaps, secrets };
}

/** A Secret's values are base64 in the API; env gets them decoded. */
export function secretValue(secret: Secret, key: string): string | undefined {
    const b64 = secret.data?.[key];
    return b64 === undefined ? undefined : Buffer.from(b64, "base64").toString("utf8");
}

function notFound(kind: "configmaps" | "secrets", name: string): Error {
    return configError(`${kind} ${JSON.stringify(name)} not found`);
}

/** Variables from envFrom, in declaration order (later sources override earlier ones). */
function envFromValues(container: Container, ctx: EnvContext): Map<string, string> {
    const env = new Map<string, string>();
    for (const from of container.envFrom ?? []) {
        const ref = from.configMapRef ?? from.secretRef;
        if (!ref) continue;
        const isConfigMap = from.configMapRef !== undefined;
        const obj = isConfigMap ? ctx.objects.configMaps.get(ref.name ?? "") : ctx.objects.secrets.get(ref.name ?? "");
        if (obj === undefined) {
            if (ref.optional) continue;
            throw notFound(isConfigMap ? "configmaps" : "secrets", ref.name ?? "");
        }
        const keys = isConfigMap ? Object.keys((obj as ConfigMap).data ?? {}) : Object.keys((obj as Secret).data ?? {});
        for (const key of keys) {
            const name = (from.prefix ?? "") + key;
            // The kubelet skips invalid names (with a warning event) instead of failing the pod.
            if (!ENV_VAR_NAME.test(name)) continue;
            const value = isConfigMap ? (obj as ConfigMap).data![key] : secretValue(obj as Secret, key)!;
            env.set(name, value);
        }
    }
    return env;
}

function keyRefValue(
    kind: "ConfigMap" | "Secret",
    ref: { name?: string; key: string; optional?: boolean },
    namespace: string,
    ctx: EnvContext,
): string | undefined {
    const name = ref.name ?? "";
    const obj = kind === "ConfigMap" ? ctx.objects.configMaps.get(name) : ctx.objects.secrets.get(name);
    if (obj === undefined) {
        if (ref.optional) return undefined;
        throw notFound(kind === "ConfigMap" ? "configmaps" : "secrets", name);
    }
    const value = kind === "ConfigMap" ? (obj as ConfigMap).data?.[ref.key] : secretValue(obj as Secret, ref.key);
    if (value === undefined && !ref.optional) {
        throw configError(`couldn't find key ${ref.key} in ${kind} ${namespace}/${name}`);
    }
    return value;
}

/**
 * The container's variables as the kubelet passes them to the runtime: envFrom first, then env in
 * declaration order (a `value` is expanded against the variables declared before it and the
 * service variables), then the service variables not already set.
 */
export function resolveEnv(pod: Pod, container: Container, ctx: EnvContext): Map<string, string> {
    const namespace = pod.metadata?.namespace ?? "default";
    const env = envFromValues(container, ctx);
    const lookup = lookupIn(env, ctx.services);
    for (const v of container.env ?? []) {
        let value: string | undefined = v.value ?? "";
        if (value !== "") {
            value = expand(value, lookup);
        } else if (v.valueFrom) {
            const from = v.valueFrom;
            if (from.fieldRef) {
                try {
                    value = fieldRefValue(pod, from.fieldRef.fieldPath, ctx);
                } catch (e) {
                    throw configError((e as Error).message);
                }
            } else if (from.configMapKeyRef) {
                value = keyRefValue("ConfigMap", from.configMapKeyRef, namespace, ctx);
            } else if (from.secretKeyRef) {
                value = keyRefValue("Secret", from.secretKeyRef, namespace, ctx);
            } else if (from.resourceFieldRef) {
                throw configError(`env ${v.name}: resourceFieldRef is not supported by this kubelet (no resource accounting)`);
            }
            // An optional reference to a missing object or key leaves the variable out entirely.
            if (value === undefined) continue;
        }
        env.set(v.name, value);
    }
    for (const [k, val] of ctx.services) if (!env.has(k)) env.set(k, val);
    return env;
}

/**
 * argv: command then args, each `$(VAR)`-expanded against the final environment. Without an image
 * there is no ENTRYPOINT or CMD to fall back on, so `command` is required.
 */
export function resolveArgv(container: Container, env: ReadonlyMap<string, string>): string[] {
    if (!container.command || container.command.length === 0) {
        throw configError(
            `container ${container.name} has no command: this kubelet runs no image and so has no ENTRYPOINT; set command (and args) in the pod spec`,
        );
    }
    const lookup = lookupIn(env);
    return [...container.command, ...(container.args ?? [])].map((a) => expand(a, lookup));
}

/**
 * The process environment as a runtime builds it: the image's PATH (here the runtime default),
 * HOSTNAME (the node's for hostNetwork pods, else the pod's), then the kubelet's variables.
 */
export function processEnv(env: ReadonlyMap<string, string>, hostname: string): Record<string, string> {
    return { PATH: DEFAULT_PATH, HOSTNAME: hostname, ...Object.fromEntries(env) };
}
