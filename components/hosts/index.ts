// The host side: Open vSwitch, OVN central and chassis, management ports and gateways, each a set
// of remote.Command resources running the host's script bundle, which also installs the host's
// packages (./scriptBundle). A node's parts (./part) are the cluster's children; the central and
// each gateway's host side are components.
export { Central, type CentralArgs } from "./central";
export { Zone, type ZoneArgs } from "./zone";
export { Chassis, type ChassisArgs } from "./chassis";
export { ipsecOnChassis, type IpsecHost } from "./ipsec";
export { ManagementPort, type ManagementPortArgs } from "./managementPort";
export { VtepHost, VxlanMode, type VtepHostArgs } from "./vtep";
export { VtepBindings, type VtepBindingsArgs } from "./vtepBindings";
export { GatewayHost, type GatewayHostArgs } from "./gatewayHost";
export { GatewayFlows, type GatewayFlowsArgs } from "./gatewayFlows";
export { ScriptBundle, type ScriptBundleArgs } from "./scriptBundle";
export type { HostConnection, OvsdbSsl } from "./command";
