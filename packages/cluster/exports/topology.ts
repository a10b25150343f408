// The `@ovn-kubernetes-as-code/cluster/topology` entry: what other packages may use of topology/.
export { clusterRouterRows, nodeSwitchRows, transitRows } from "../topology/expectations";
