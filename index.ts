// The program: read the stack config, validate it (nothing is registered when it is invalid),
// create the cluster, export what operators look up. It uses the package as any other program
// would (see examples/).
import { deployStack } from "@ovn-kubernetes-as-code/cluster";

const cluster = deployStack();

export const nodeSubnets = cluster.nodeSubnets;
export const routerIps = cluster.routerIps;
export const managementIps = cluster.managementIps;
export const nbAddress = cluster.nbAddress;
export const sbAddress = cluster.sbAddress;
export const systemIds = cluster.systemIds;
/** ovnkube mode: the API server the stack writes to (empty in Pulumi mode). */
export const kubernetesServer = cluster.kubernetesServer;
