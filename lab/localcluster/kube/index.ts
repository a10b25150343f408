// The local cluster's Kubernetes control plane (etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler) and the lab binaries it runs.
export { startControlPlane, stopControlPlane, loadControlPlane, restartApiServer, COMPONENTS } from "./controlPlane";
export type { ControlPlane, ControlPlaneOptions, Component } from "./controlPlane";
export type { NodeCredentials } from "./credentials";
export { kubeletUser, ADMIN_USER } from "./credentials";
export { controlPlaneLayout, apiServerUrl, API_SERVER_PORT } from "./layout";
export { controlPlaneAddress } from "../addressing";
export { labBinary, labBinaries, labCacheDir, defaultReleaseOf, LAB_CACHE_ENV, LAB_BINARIES } from "./labBinaries";
export type { LabBinary } from "./labBinaries";
export { labSourceDir, LAB_BIN_ENV, KUBERNETES_RELEASE, KUBERNETES_VERSION } from "../labReleases";
export type { LabRelease } from "../labReleases";
