// How a row of a group is named to people and found by ovn-kubernetes' own names: the OVN name
// in the row-key grammar of ./expectation/rowKeys (`Logical_Switch_Port stor-node2`,
// `NAT GR_node2 snat 10.128.0.0/14`), and a load balancer, which has no name, by the
// external_ids key ovn-kubernetes marks it with (`Load_Balancer k8s-cluster-lb-tcp=yes`).
// Outputs key `rows` by these names, so the engine's property diff of a refresh or preview shows
// `rows["Logical_Switch_Port stor-node2"].columns.options`; import finds untagged rows by them.
import { formatRowKey, type RowKey } from "./rowKeys";

export type RowIdentity = RowKey | { table: "Load_Balancer"; externalId: [string, string] };

export function rowName(identity: RowIdentity): string {
    if (identity.table === "Load_Balancer") return `Load_Balancer ${identity.externalId[0]}=${identity.externalId[1]}`;
    return formatRowKey(identity);
}
