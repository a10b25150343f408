// The `@ovn-kubernetes-as-code/cluster/render` entry: what other packages may use of render/.
export { nbctlShow } from "../render/nbctlShow";
export { desiredNorthbound } from "../render/northbound";
