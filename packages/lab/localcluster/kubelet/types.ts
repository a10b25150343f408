// The Kubernetes object shapes the kubelet stand-in reads and writes, as the API defines them
// (kubernetes-models' interfaces: types only, nothing of that package runs here).
export type { IPod as Pod } from "kubernetes-models/v1/Pod";
export type { IPodSpec as PodSpec } from "kubernetes-models/v1/PodSpec";
export type { IPodStatus as PodStatus } from "kubernetes-models/v1/PodStatus";
export type { IPodCondition as PodCondition } from "kubernetes-models/v1/PodCondition";
export type { IContainer as Container } from "kubernetes-models/v1/Container";
export type { IContainerStatus as ContainerStatus } from "kubernetes-models/v1/ContainerStatus";
export type { IContainerState as ContainerState } from "kubernetes-models/v1/ContainerState";
export type { IEnvVar as EnvVar } from "kubernetes-models/v1/EnvVar";
export type { IVolume as Volume } from "kubernetes-models/v1/Volume";
export type { IVolumeMount as VolumeMount } from "kubernetes-models/v1/VolumeMount";
export type { IKeyToPath as KeyToPath } from "kubernetes-models/v1/KeyToPath";
export type { IProbe as Probe } from "kubernetes-models/v1/Probe";
export type { IConfigMap as ConfigMap } from "kubernetes-models/v1/ConfigMap";
export type { ISecret as Secret } from "kubernetes-models/v1/Secret";
export type { IService as Service } from "kubernetes-models/v1/Service";
export type { INode as Node } from "kubernetes-models/v1/Node";
export type { INodeCondition as NodeCondition } from "kubernetes-models/v1/NodeCondition";
export type { ILease as Lease } from "kubernetes-models/coordination.k8s.io/v1/Lease";
export type { ITokenRequest as TokenRequest } from "kubernetes-models/authentication.k8s.io/v1/TokenRequest";
