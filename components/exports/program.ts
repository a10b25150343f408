// The `@ovn-kubernetes-as-code/cluster/program` entry: what other packages may use of program/.
export { nbConnection } from "../program/connections";
