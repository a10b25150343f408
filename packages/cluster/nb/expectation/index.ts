// NorthboundExpectation: what the plan expects of the NB rows ovnkube writes, checked, never written.
export { NorthboundExpectation, type NorthboundExpectationArgs } from "./resource";
export { DEFAULT_SETTLE, type Settle } from "./inputs";
export { ROW_KEY_FORMS } from "./rowKeys";
export { NO_KEY, NO_ROW, severalRows, type Cell, type Cells } from "./values";
