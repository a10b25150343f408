// The NB providers' public surface: four resources, each owning one group of Northbound rows.
export { ClusterRouter, type ClusterRouterArgs } from "./resources/clusterRouterResource";
export { GatewayRouter, type GatewayRouterArgs } from "./resources/gatewayRouterResource";
export { NodeSwitch, type NodeSwitchArgs } from "./resources/nodeSwitchResource";
export { VtepGateway, type VtepGatewayArgs } from "./resources/vtepGatewayResource";
export { NB_MODULE, NbResource, type NbConnectionArgs, type NbResourceArgs } from "./resources/nbResource";
export { NB_SCHEMA_VERSION, type NbConnection } from "./kinds/common";
export { TAG_GROUP, TAG_OWNER, TAG_ROW, clusterGroup, gatewayGroup, nodeGroup, vtepGroup } from "./core/tags";
export type { RowState } from "./core/rows";
