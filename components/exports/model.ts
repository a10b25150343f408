// The `@ovn-kubernetes-as-code/cluster/model` entry: what other packages may use of model/.
export { buildClusterModel, crdUrl } from "../model/clusterModel";
export * from "../model/names";
export { ClusterModel, GatewayModel, KubeModel, NodeNetworkModel, OvnkubeNodeModel } from "../model/types";
export { SshTarget } from "../model/sshTarget";
