// The `@ovn-kubernetes-as-code/lab/kubeclient` entry: what other packages may use of kubeclient/.
export { KubeClient } from "../kubeclient";
