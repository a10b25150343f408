// The `@ovn-kubernetes-as-code/cluster/ovsdb` entry: what other packages may use of ovsdb/.
export { OvsdbClient } from "../ovsdb/client";
export { Operation, select } from "../ovsdb/operations";
