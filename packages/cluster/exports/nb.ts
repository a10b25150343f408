// The `@ovn-kubernetes-as-code/cluster/nb` entry: what other packages may use of nb/.
export { NO_ROW } from "../nb/expectation";
export { Mismatch, mismatchLine } from "../nb/expectation/observe";
export { NB_KINDS, NB_KIND_LIST, NbKindName } from "../nb/kinds";
export { nbProviderImplementation } from "../nb/provider";
export { reconcile } from "../nb/reconcile";
export { RowRef, RowSpec, refId } from "../nb/rows";
export { closeNbSessions } from "../nb/session";
export { NB_DB } from "../nb/tables";
