// The kubelet stand-in of the local cluster's hosts: what a kubelet does for the pods bound to
// its node (registration, status, Lease, volumes, CNI, processes, probes, restarts, logs), and
// nothing more. See README.md for what differs from a real kubelet.
export { restartKubelet, startKubelet, stopKubelet } from "./start";
export { kubeletOptionsForHost, LAB_CNI_BIN_DIRS } from "./forHost";
export type { StartKubeletOptions, RunningKubelet } from "./start";
export { resolveOptions, DEFAULT_ROOT_DIR, DEFAULT_CNI_CONF_DIR, DEFAULT_CNI_BIN_DIRS } from "./options";
export type { KubeletOptions } from "./options";
export { containerLogPath, podLogDir, logText, parseCriLog, DEFAULT_POD_LOGS_DIR } from "./logs";
export { inHost, readTextOr } from "./hostfs";
