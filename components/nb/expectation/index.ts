// NorthboundExpectation: what the plan expects of the NB rows ovnkube writes, checked, never written.
export { NorthboundExpectation, type NorthboundExpectationArgs } from "./expectationResource";
export { DEFAULT_SETTLE, type Settle } from "./expectationInputs";
export { ROW_KEY_FORMS } from "../core/rowKeys";
export { NO_KEY, NO_ROW, severalRows, type Cell, type Cells } from "./cells";
