// The NB providers' public surface: three resources, each owning one group of Northbound rows.
export { ClusterRouter, type ClusterRouterArgs } from "./clusterRouter";
export { GatewayRouter, type GatewayRouterArgs } from "./gatewayRouter";
export { NodeSwitch, type NodeSwitchArgs } from "./nodeSwitch";
export { NB_MODULE, NbResource, type NbConnectionArgs, type NbResourceArgs } from "./resource";
export { NB_SCHEMA_VERSION, type NbConnection } from "./kinds/common";
export { TAG_GROUP, TAG_OWNER, TAG_ROW, clusterGroup, gatewayGroup, nodeGroup } from "./tags";
export type { RowState } from "./rows";
