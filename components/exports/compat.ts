// The `@ovn-kubernetes-as-code/cluster/compat` entry: what other packages may use of compat/.
export { tunnelOverhead } from "../compat/tunnelMtu";
