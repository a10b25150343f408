// The `@ovn-kubernetes-as-code/cluster/values` entry: what other packages may use of values/.
export { PATTERNS, addressAt, cidrsOverlap, containsIp, isIpv4, macFromIp, networkOf, parseNetwork, size } from "../values";
