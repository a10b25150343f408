// The `@ovn-kubernetes-as-code/cluster/kube` entry: what other packages may use of kube/.
export { CrdObject, parseCrds, readCrdFile } from "../kube/crds";
export { IDENTITY, NODE_WEBHOOK } from "../kube/identity";
export { kubeManifests, manifestList } from "../kube/manifests";
export { OVNKUBE_DB } from "../kube/ovnkubeDb";
export { OVNKUBE_TYPE } from "../kube/ovnkubeComponent";
export { webhookCertificateProvider } from "../kube/webhookCertificate";
export { CONTROL_PLANE, MASTER, NODE_ID_ANNOTATION, NODE_SUBNETS_ANNOTATION } from "../kube/objectNames";
export { DEFAULT_OVNKUBE_VERSION, OVNKUBE_VERSIONS, OvnkubeVersion, releaseCrdUrls, releaseOf } from "../config/releases";
export { parseKubeconfig, type KubeCredentials, type KubeconfigOptions } from "../kube/kubeconfig";
