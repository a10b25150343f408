// Checks of the Kubernetes part of the model, run before any object is built: a bad value fails the
// preview with the field and the reason instead of producing a DaemonSet that crash-loops.
import type { KubeModel } from "../model/types";
import { CONFIG_ENV } from "./config-map";

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
/** An image reference has no whitespace and no shell or argument syntax; the registry decides the rest. */
const IMAGE = /^[A-Za-z0-9][A-Za-z0-9._\-/:@]*$/;
/**
 * Keys that would carry credentials. A ConfigMap is readable by anyone who may read the namespace,
 * so the API token and CA never go there: the pods use their service account's token and CA.
 */
const SECRET_LIKE_KEY = /token|cert|secret|password|passwd|priv|key$/i;

export function validateKubeModel(model: KubeModel): void {
    const fail = (path: string, reason: string): never => {
        throw new Error(`kube.${path}: ${reason}`);
    };
    if (!DNS_LABEL.test(model.namespace) || model.namespace.length > 63) {
        fail("namespace", `"${model.namespace}" is not a DNS-1123 label (lower-case letters, digits, '-'; at most 63)`);
    }
    if (!IMAGE.test(model.image)) {
        fail("image", `"${model.image}" is not an image reference`);
    }
    if (model.masterNodes.length === 0) {
        fail("masterNodes", "is empty: ovnkube-master would run nowhere");
    }
    for (const node of model.masterNodes) {
        if (!DNS_SUBDOMAIN.test(node) || node.length > 253) {
            fail("masterNodes", `"${node}" is not a Kubernetes node name`);
        }
    }
    for (const [key, value] of Object.entries(model.config)) {
        if (!CONFIG_KEY.test(key)) fail(`config.${key}`, "is not a valid ConfigMap key");
        if (SECRET_LIKE_KEY.test(key)) fail(`config.${key}`, "looks like a credential; those never go into ovn-config");
        if (typeof value !== "string") fail(`config.${key}`, "must be a string");
    }
    for (const { key, required } of CONFIG_ENV) {
        if (required && !model.config[key]) fail(`config.${key}`, "is required by ovnkube and missing");
    }
    const https = model.config.k8s_apiserver.startsWith("https://");
    if (https !== model.secureApi) {
        fail(
            "config.k8s_apiserver",
            `"${model.config.k8s_apiserver}" disagrees with secureApi=${model.secureApi} (https means secure)`,
        );
    }
}
