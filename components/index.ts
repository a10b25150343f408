// The package's public surface: the cluster component and what a program needs to feed it from
// stack config, plus the Northbound resources for programs that build their own topology.
export { OvnKubernetesCluster, type OvnKubernetesClusterArgs } from "./cluster";
export { ConfigError, validateConfig } from "./plan/validate";
export type { ClusterSettings, StackConfig } from "./config/types";
export { logConfigWarnings, readStackConfig, SECRET_PRESENT, type Secrets } from "./program/readConfig";
export { deployStack } from "./stack";
export {
    ClusterRouter,
    GatewayRouter,
    NodeSwitch,
    VtepGateway,
    NB_SCHEMA_VERSION,
    type ClusterRouterArgs,
    type GatewayRouterArgs,
    type NodeSwitchArgs,
    type VtepGatewayArgs,
    type NbConnectionArgs,
} from "./nb";
export { NorthboundExpectation, type NorthboundExpectationArgs } from "./nb/expectation";
export { PACKAGE_NAME, PROVIDER_CONTRACT } from "./dynamic/contract";
