// The `@ovn-kubernetes-as-code/lab/localcluster` entry: what other packages may use of localcluster/.
export {
    LOCAL_LAB_PASSPHRASE,
    LocalCluster,
    defaultStackPath,
    down,
    hostExec,
    loadCluster,
    localPassphrase,
    up,
    writeLocalStack,
} from "../localcluster";
export { CHECK_PORT, formatReport, overlayReport } from "../localcluster/checks";
export { formatIpv6Report, ipv6Report } from "../localcluster/ipv6Checks";
export { exploreCommands } from "../localcluster/explore";
export { removePulumiDemoPods, startPulumiDemoPods } from "../localcluster/demoPods";
export { loadControlPlane } from "../localcluster/kube";
export {
    DEMO_APP_LABEL,
    DEMO_NAMESPACE,
    createClusterIpService,
    createClusterIpsService,
    podRef,
    removeDemoWorkloads,
    startDemoDeployment,
} from "../localcluster/kubeWorkloads";
export { KubernetesLab, upWithKubernetes } from "../localcluster/kubernetes";
export { OvnKubernetesRelease } from "../localcluster/labReleases";
