// The `@ovn-kubernetes-as-code/lab/offline` entry: what other packages may use of offline/.
export { OfflineOptions, OperationResult, apply, destroy, refresh } from "../offline/api";
export { SDK_DIR } from "../offline/sdk";
export { opLine } from "../offline/summary";
export { saveState } from "../offline/state";
export { Keyring } from "../offline/secrets";
