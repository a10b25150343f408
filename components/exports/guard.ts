// The `@ovn-kubernetes-as-code/cluster/guard` entry: what other packages may use of guard/.
export { GuardedHost, ovnkubeNodeRows } from "../guard/blockers";
export { CHANGE_GUARD_TYPE } from "../guard/changeGuard";
export { DESTROY_GUARD_TYPE } from "../guard/destroyGuard";
