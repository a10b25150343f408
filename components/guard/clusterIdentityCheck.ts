// ClusterIdentityCheck (ovnkube mode, with the stack's `kubeconfig`): refuses at every preview and
// up, before any step, an `apiServer.url` that is not the cluster the kubeconfig writes to
// (../kube/clusterIdentity says how that is proven). The kubeconfig is read from the provider's
// configuration by its stack config key, as the SSH key is, so no state holds it; a stack without
// it in its config (a library user's own provider, the ambient kubeconfig) is not judged.
import * as pulumi from "@pulumi/pulumi";
import { providerConfigValue } from "../dynamic/providerConfig";
import { preflightProvider } from "../dynamic/preflight";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";
import { parseKubeconfig } from "../kube/kubeconfig";
import { clusterIdentityRefusal, readClusterUid, sameEndpoint } from "../kube/clusterIdentity";

export interface ClusterIdentityCheckArgs {
    /** ovnkube's API server, `apiServer.url`. */
    apiServerUrl: string;
    /** The stack config key (`<namespace>:kubeconfig`) whose value is the kubeconfig. */
    kubeconfigConfig: string;
}

async function refusal(inputs: ClusterIdentityCheckArgs): Promise<string | undefined> {
    const text = providerConfigValue(inputs.kubeconfigConfig);
    if (text === undefined) return undefined;
    let creds;
    try {
        creds = parseKubeconfig(text);
    } catch {
        return undefined; // validation names what is wrong with it, and the Kubernetes provider cannot use it either
    }
    if (sameEndpoint(creds.server, inputs.apiServerUrl)) return undefined;
    const [viaKubeconfig, viaApiServer] = await Promise.all([
        readClusterUid(creds, creds.server),
        readClusterUid(creds, inputs.apiServerUrl),
    ]);
    return clusterIdentityRefusal(inputs.apiServerUrl, creds.server, viaKubeconfig, viaApiServer);
}

export const clusterIdentityCheckProvider = preflightProvider({
    property: "apiServerUrl",
    keys: ["apiServerUrl", "kubeconfigConfig"],
    id: () => "cluster-identity",
    refusal,
});

const provider = providerStub("ovn-kubernetes", "ClusterIdentityCheck", clusterIdentityCheckProvider);

export class ClusterIdentityCheck extends PackageResource {
    constructor(name: string, args: ClusterIdentityCheckArgs, opts?: pulumi.CustomResourceOptions) {
        super(provider, name, { ...args }, opts);
    }
}
