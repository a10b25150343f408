// The one home of value rules: IPv4/CIDR arithmetic (./cidr.ts), the table of value patterns
// (./patterns.ts) and the last check of a value before it reaches a shell (./checked.ts). Config,
// model, hosts, NB, Kubernetes and the local cluster all check and compute addresses and names through here, so a value one layer accepts every other accepts too.
export * from "./cidr";
export * from "./patterns";
export * from "./checked";
export * from "./versions";
