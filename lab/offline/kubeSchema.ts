// Offline validation of a Kubernetes object against the Kubernetes OpenAPI schema, with the
// models of `kubernetes-models` (one class per apiVersion/kind, e.g. apps/v1 DaemonSet at
// kubernetes-models/apps/v1/DaemonSet). Problems come back as field paths an operator can find
// in the object: spec.template.spec.containers[0].ports[0].containerPort: must be integer.
const MAX_PROBLEMS = 5;

interface AjvError {
    instancePath?: string;
    message?: string;
    params?: Record<string, unknown>;
}

type Model = new (data: unknown) => { validate(): void };

function loadModel(apiVersion: string, kind: string): Model | undefined {
    if (!/^[a-z0-9.-]*\/?v[0-9a-z]+$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) return undefined;
    try {
        const mod = require(`kubernetes-models/${apiVersion}/${kind}`) as Record<string, unknown>;
        return (mod[kind] ?? mod.default) as Model | undefined;
    } catch {
        return undefined;
    }
}

/** "/spec/containers/0/name" → "spec.containers[0].name". */
export function fieldPath(pointer: string): string {
    let out = "";
    for (const raw of pointer.split("/").slice(1)) {
        const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
        out += /^\d+$/.test(part) ? `[${part}]` : out === "" ? part : `.${part}`;
    }
    return out || "(object)";
}

/** The schema problems of `object` (empty when it is valid); an unknown apiVersion/kind is one problem. */
export function kubeProblems(object: Record<string, unknown>): string[] {
    const apiVersion = String(object.apiVersion ?? "");
    const kind = String(object.kind ?? "");
    const Model = loadModel(apiVersion, kind);
    if (!Model) return [`apiVersion/kind: no Kubernetes schema for ${apiVersion} ${kind}`];
    try {
        new Model(object).validate();
        return [];
    } catch (e) {
        const errors = (e as { errors?: AjvError[] }).errors;
        if (!Array.isArray(errors)) return [(e as Error).message];
        const problems = errors.map((err) => {
            const missing = err.params?.missingProperty;
            const at = fieldPath(err.instancePath ?? "");
            return missing
                ? `${at === "(object)" ? "" : `${at}.`}${String(missing)}: is required`
                : `${at}: ${err.message ?? "is invalid"}`;
        });
        return [...new Set(problems)].slice(0, MAX_PROBLEMS);
    }
}
