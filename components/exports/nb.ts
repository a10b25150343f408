// The `@ovn-kubernetes-as-code/cluster/nb` entry: what other packages may use of nb/.
export { NO_ROW } from "../nb/expectation";
export { Mismatch, mismatchLine } from "../nb/expectation/observe";
export { NB_KINDS, NB_KIND_LIST, NbKindName, kindOf } from "../nb/kinds";
export { nbProviderImplementation } from "../nb/resources/nbProvider";
export { reconcile } from "../nb/transact/reconcile";
export { RowRef, RowSpec, RowState, refId } from "../nb/core/rows";
export { recordedStates } from "../nb/core/record";
export { closeNbSessions } from "../nb/transact/session";
export { NB_DB, NB_TABLES } from "../nb/core/tables";
