// A small Kubernetes REST client shared by the offline engine and the local cluster (see client.ts
// for why it is not @kubernetes/client-node).
export { KubeClient, describeRef, finalizingState } from "./client";
export type {
    KubeObject,
    ObjectMeta,
    ObjectRef,
    PatchType,
    PatchOptions,
    WriteOptions,
    ApplyOptions,
    ListOptions,
    DeleteOptions,
} from "./client";
export { KubeApiError, isNotFound, isConflict } from "./errors";
export type { KubeStatus } from "./errors";
export { parseKubeconfig, loadKubeconfig, buildKubeconfig } from "./kubeconfig";
export type { KubeCredentials, KubeconfigOptions, KubeconfigUser } from "./kubeconfig";
export { pollUntil } from "./poll";
export type { PollOptions } from "./poll";
export type { ApiResource } from "./discovery";
export type { Transport, RequestOptions } from "./transport";
export type { ExecResult, PodRefArgs } from "./podStreams";
