// The `@ovn-kubernetes-as-code/cluster/status` entry: what other packages may use of status/.
export { MemberDbStatus, STATUS_DBS, centralStatus, formatCentralStatus } from "../status/centralStatus";
export { PlannedGateway, plannedGatewayRows, plannedGateways, plannedNbRows } from "../status/plannedRows";
export { NbDifferences, topologyDifferences } from "../status/topologyStatus";
