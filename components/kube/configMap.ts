// ConfigMap ovn-config and the environment the ovnkube containers take from it. The keys are those
// of the ConfigMap the OpenShift installer created (OvnNorth, OvnSouth, k8s_apiserver, net_cidr,
// svc_cidr); the variable names are those ovnkube's image and DaemonSets have always used.
import { createHash } from "crypto";
import type { KubeModel } from "../model/types";
import { COMMON_LABELS, CONFIG_MAP } from "./objectNames";
import type { ConfigMap, EnvVar } from "./objectTypes";

export interface ConfigEnv {
    /** Key in ovn-config. */
    key: string;
    /** Environment variable of the ovnkube containers. */
    env: string;
    /** Without it ovnkube cannot start, so its absence is a model error rather than a crash loop. */
    required: boolean;
    /** Only the centralized architecture has remote databases; interconnect zones use their unix sockets. */
    centralizedOnly?: boolean;
}

export const CONFIG_ENV: readonly ConfigEnv[] = [
    { key: "OvnNorth", env: "OVN_NORTH", required: true, centralizedOnly: true },
    { key: "OvnSouth", env: "OVN_SOUTH", required: true, centralizedOnly: true },
    { key: "k8s_apiserver", env: "K8S_APISERVER", required: true },
    { key: "net_cidr", env: "OVN_NET_CIDR", required: true },
    { key: "svc_cidr", env: "OVN_SVC_CIDR", required: true },
    { key: "mtu", env: "MTU", required: false },
    // The model's node-subnet size and tunnel type: ovnkube must agree with the host layer on both.
    { key: "host_subnet_length", env: "OVN_HOST_SUBNET_LENGTH", required: false },
    { key: "encap_type", env: "OVN_ENCAP_TYPE", required: false },
];

export function configMap(model: KubeModel): ConfigMap {
    return {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: CONFIG_MAP, namespace: model.namespace, labels: { ...COMMON_LABELS } },
        data: { ...model.config },
    };
}

/** The variables for the keys present in ovn-config; never optional, so a missing key stops the pod visibly. */
export function configEnv(model: KubeModel): EnvVar[] {
    return CONFIG_ENV.filter((c) => c.key in model.config).map((c) => ({
        name: c.env,
        valueFrom: { configMapKeyRef: { name: CONFIG_MAP, key: c.key, optional: false } },
    }));
}

/** True when ovn-config has `key`, i.e. when `$(env)` of that key can be used in arguments. */
export function hasConfigEnv(model: KubeModel, env: string): boolean {
    const entry = CONFIG_ENV.find((c) => c.env === env);
    return entry !== undefined && entry.key in model.config;
}

/**
 * Digest of ovn-config's data, put on the pod templates: the kubelet reads configMapKeyRef values
 * only when a container starts, so a changed ConfigMap must change the template to roll the pods.
 */
export function configHash(model: KubeModel): string {
    const sorted = Object.keys(model.config)
        .sort()
        .map((k) => [k, model.config[k]]);
    return createHash("sha256").update(JSON.stringify(sorted)).digest("hex");
}
