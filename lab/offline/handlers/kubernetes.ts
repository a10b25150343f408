// kubernetes:* objects. Check validates each object against the Kubernetes schema (so a preview
// already fails on it) and auto-names it as the provider does. Then, when the object's explicit
// provider carries a kubeconfig, the object is applied to that API server (./kubernetesApi.ts);
// otherwise it is written as a YAML manifest and no cluster is contacted (./kubernetesManifests.ts).
import { randomBytes } from "node:crypto";
import { kubeProblems } from "../kubeSchema";
import type { KubeTargets } from "../kubeTarget";
import type { StateResource } from "../state";
import type { Props } from "../values";
import { isPatchType, kubernetesApi } from "./kubernetesApi";
import { manifestsStore, metaOf, objectId, plain } from "./kubernetesManifests";
import type { ProviderInputs } from "./providers";
import type { HandlerContext, ResourceHandler } from "./types";

export { manifestFile } from "./kubernetesManifests";

export function kubernetesHandler(ctx: HandlerContext, providers: ProviderInputs, targets: KubeTargets): ResourceHandler {
    const manifests = manifestsStore(ctx);
    const api = kubernetesApi(ctx);
    const targetOf = (providerRef: string | undefined) => targets.for(providers.of(providerRef)?.inputs);

    return {
        async check(reg, old) {
            const inputs: Props = { ...reg.inputs };
            const meta = inputs.metadata;
            // Like the provider's auto-naming: <name>-<random>, kept for the object's lifetime.
            if (meta && typeof meta === "object" && !("value" in meta) && !metaOf(inputs).name) {
                const kept = old ? metaOf(old.outputs).name : undefined;
                inputs.metadata = { ...meta, name: kept ?? `${reg.name}-${randomBytes(4).toString("hex")}` };
            }
            // A patch is a partial object: the fields it leaves out are someone else's, not missing.
            const problems = kubeProblems(plain(inputs)).filter((p) => !(isPatchType(reg.type) && p.endsWith(": is required")));
            if (problems.length > 0) {
                throw new Error(`invalid Kubernetes object:\n  ${problems.join("\n  ")}`);
            }
            return inputs;
        },
        async diff(old, inputs, reg) {
            const target = targetOf(reg.provider);
            return target ? api.diff(target, reg.type, old, inputs) : manifests.diff(old, inputs);
        },
        async create(reg, inputs) {
            const target = targetOf(reg.provider);
            const outputs = target ? await api.create(target, reg.type, inputs) : manifests.write(inputs);
            return { id: objectId(inputs), outputs };
        },
        async update(old, inputs, reg) {
            const target = targetOf(reg.provider);
            return target ? api.update(target, reg.type, old, inputs) : manifests.write(inputs);
        },
        async delete(old: StateResource) {
            const target = targetOf(old.provider);
            if (target) await api.remove(target, old);
            else manifests.remove(old);
        },
        async read(old) {
            const target = targetOf(old.provider);
            return target ? api.read(target, old) : manifests.read(old);
        },
    };
}
