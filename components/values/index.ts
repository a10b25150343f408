// The one home of value rules: IPv4/CIDR arithmetic (./cidr.ts) and the table of value patterns
// (./patterns.ts). Config, model, hosts, NB, Kubernetes and the local cluster all check and
// compute addresses and names through here, so a value one layer accepts every other accepts too.
export * from "./cidr";
export * from "./patterns";
