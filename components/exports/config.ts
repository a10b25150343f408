// The `@ovn-kubernetes-as-code/cluster/config` entry: what other packages may use of config/.
export { featureOf, type FeatureKey } from "../config/features";
export { OVN_SOURCES, type OvnSource } from "../config/ovnSource";
export { Problem } from "../config/problem";
export { stackConfigSchema } from "../config/schema";
export { PROJECT, readStackFile } from "../config/stackFile";
export { ClusterSettings, NodeConfig, OvnkubeConfigInput, Role, SECRET_KEYS, StackConfigInput } from "../config/types";
export { SecretTexts } from "../plan/checks/keyMaterial";
export { ConfigError, validateConfig } from "../plan/validate";
export { configWarnings, renameWarnings } from "../config/warnings";
