// The Kubernetes object shapes registration writes, as the API defines them
// (kubernetes-models' interfaces: types only, nothing of that package runs here).
export type { INode as Node } from "kubernetes-models/v1/Node";
export type { INodeCondition as NodeCondition } from "kubernetes-models/v1/NodeCondition";
export type { ILease as Lease } from "kubernetes-models/coordination.k8s.io/v1/Lease";
