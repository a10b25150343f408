// Which Kubernetes cluster an ovnkube-mode stack writes to, said at every preview and up: the
// server of `kubeconfig`'s current context, or, with kubernetes.useAmbientConfig, of the
// operator's own kubeconfig as @pulumi/kubernetes finds it ($KUBECONFIG's first file, else
// ~/.kube/config).
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { kubeconfigServer } from "../plan/checks/keyMaterial";

/** The ambient kubeconfig's server, and where it was read from. */
export function ambientServer(env: NodeJS.ProcessEnv = process.env): string {
    const file = env.KUBECONFIG?.split(delimiter).find((f) => f !== "") ?? join(homedir(), ".kube", "config");
    let text: string;
    try {
        text = readFileSync(file, "utf8");
    } catch {
        return `the ambient kubeconfig, but ${file} cannot be read here`;
    }
    return `${kubeconfigServer(text) ?? "no server"} (the ambient kubeconfig ${file}, its current context)`;
}

/**
 * The server the stack writes to. Only the URL leaves the secret kubeconfig: it is what an
 * operator checks before an `up`, and holds no credential (validation refuses user:password@ in it).
 */
export function kubernetesTarget(kubeconfig: pulumi.Output<string> | undefined): pulumi.Output<string> {
    if (kubeconfig === undefined) return pulumi.output(ambientServer());
    return pulumi.unsecret(kubeconfig.apply((text) => kubeconfigServer(text) ?? "no server"));
}
