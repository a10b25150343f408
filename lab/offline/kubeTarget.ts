// Where a kubernetes:* resource is applied: the API server of its explicit provider's kubeconfig
// (as pulumi-kubernetes reads it: the kubeconfig text or the path of a file, plus the optional
// `context` and `namespace` inputs), or nowhere when the provider has no kubeconfig (the offline
// manifests then stand for the cluster). One client per provider and kubeconfig, reused by every
// resource of an operation.
import { createHash } from "node:crypto";
import * as os from "node:os";
import { KubeClient, loadKubeconfig, parseKubeconfig } from "../kubeclient";
import { isSecretValue, UNKNOWN_VALUE, unwrapSecrets } from "./sdk";
import type { Props } from "./values";

export interface KubeTarget {
    client: KubeClient;
    /** Namespace for namespaced objects that name none: the provider's `namespace`, else `default`. */
    defaultNamespace: string;
    /** The provider's `upsertExistingObjects` (else PULUMI_K8S_UPSERT_EXISTING_OBJECTS): a create may take over an object that is there. */
    upsertExistingObjects: boolean;
}

interface KubeProviderInputs {
    kubeconfig?: string;
    context?: string;
    namespace?: string;
    upsertExistingObjects?: boolean | string;
}

/** Kubeconfig text is YAML or JSON with more than one line or a mapping; anything else is a file path (`~` expands). */
function looksLikeContent(value: string): boolean {
    return value.includes("\n") || value.trimStart().startsWith("{") || /^\s*apiVersion\s*:/.test(value);
}

export class KubeTargets {
    private readonly clients = new Map<string, KubeTarget>();

    /**
     * The target of a provider's inputs, or undefined when it carries no kubeconfig (or one not
     * known yet, as in a preview where it comes from another resource's output).
     */
    for(providerInputs: Props | undefined): KubeTarget | undefined {
        if (!providerInputs) return undefined;
        const raw = providerInputs.kubeconfig;
        if (raw === undefined || raw === "" || raw === UNKNOWN_VALUE || (isSecretValue(raw) && raw.value === UNKNOWN_VALUE))
            return undefined;
        const p = unwrapSecrets(providerInputs) as KubeProviderInputs;
        if (typeof p.kubeconfig !== "string") throw new Error("the Kubernetes provider's kubeconfig is not a string");
        // The key holds no secret: a hash of the kubeconfig, never the text.
        const key = createHash("sha256")
            .update(JSON.stringify([p.kubeconfig, p.context ?? "", p.namespace ?? "", p.upsertExistingObjects ?? ""]))
            .digest("hex");
        let target = this.clients.get(key);
        if (!target) {
            const context = p.context || undefined;
            const creds = looksLikeContent(p.kubeconfig)
                ? parseKubeconfig(p.kubeconfig, { context })
                : loadKubeconfig(p.kubeconfig.replace(/^~(?=\/|$)/, os.homedir()), { context });
            const upsert = p.upsertExistingObjects ?? process.env.PULUMI_K8S_UPSERT_EXISTING_OBJECTS;
            target = {
                client: KubeClient.fromCredentials(creds),
                defaultNamespace: p.namespace || "default",
                upsertExistingObjects: upsert === true || upsert === "true",
            };
            this.clients.set(key, target);
        }
        return target;
    }

    close(): void {
        for (const t of this.clients.values()) t.client.close();
        this.clients.clear();
    }
}
