// The `@ovn-kubernetes-as-code/cluster/compat` entry: what other packages may use of compat/.
export { TUNNEL_OVERHEAD, tunnelOverhead } from "../compat/tunnelMtu";
