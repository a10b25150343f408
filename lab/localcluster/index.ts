// The local cluster: bare "machines" made of namespaces on this one machine, reachable over SSH,
// for trying the project without spare machines and as the real hosts of end-to-end tests.
export { up } from "./up";
export { down } from "./down";
export { status } from "./status";
export { hostExec } from "./exec";
export { addPod, removePod, podExec, ping } from "./pods";
export {
    writeLocalStack,
    localStackConfig,
    localSharedGateway,
    localPassphrase,
    defaultStackPath,
    LOCAL_LAB_PASSPHRASE,
} from "./stackFile";
export { PassphraseSecrets, IncorrectPassphraseError } from "../offline/passphraseSecrets";
export { loadCluster } from "./state";
export { shellQuote } from "./run";
export { DEFAULT_ID, DEFAULT_HOSTS } from "./names";

export type { UpOptions } from "./up";
export type { DownReport } from "./down";
export type { ClusterStatus, HostStatus } from "./status";
export type { PodNetwork, PodRef, LocalPod } from "./pods";
export type { LocalStackOptions } from "./stackFile";
export type { LocalCluster, LocalHost, HostOs, OwnRootOs } from "./state";
export { LAB_DIR_MOUNT, inHostRoot } from "./holder";
export { ensureDebianBase, DEBIAN_BASES } from "./debianBase";
export { upWithKubernetes, startKubernetes, prepareLabDir, runsKubelet } from "./kubernetes";
export type { KubernetesLab, KubernetesUpOptions, StartKubernetesOptions } from "./kubernetes";
export {
    labCrdDir,
    ovnKubernetesLabImage,
    OVN_KUBERNETES_RELEASES,
    DEFAULT_OVN_KUBERNETES_RELEASE,
    KUBERNETES_VERSION,
    LAB_BIN_ENV,
    LAB_CRDS_ENV,
} from "./labReleases";
export type { OvnKubernetesRelease } from "./labReleases";
export type { RunResult, RunOptions } from "./run";
export { startPod, stopPod } from "./workloads";
export {
    startDemoPod,
    waitPodRunning,
    kubePodExec,
    exposePodNetns,
    podRef,
    createClusterIpService,
    createNodePortService,
    removeDemoWorkloads,
    podManifest,
    clusterIpServiceManifest,
    runningPodStatus,
    DEMO_IMAGE,
    DEMO_NAMESPACE,
} from "./kubeWorkloads";
export type { DemoPodSpec, ClusterIpServiceSpec, RunningPodStatus, KubePod } from "./kubeWorkloads";
