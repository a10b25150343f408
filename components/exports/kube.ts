// The `@ovn-kubernetes-as-code/cluster/kube` entry: what other packages may use of kube/.
export { NODE_WEBHOOK } from "../kube/identity";
export { kubeManifests, manifestList } from "../kube/manifests";
export { OVNKUBE_TYPE } from "../kube/ovnkubeComponent";
export { DEFAULT_OVNKUBE_VERSION, OVNKUBE_VERSIONS, OvnkubeVersion, releaseOf } from "../config/releases";
