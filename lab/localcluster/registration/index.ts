// Node registration for local-cluster hosts that cannot run the kubelet (Debian 12: kubelet
// v1.36 needs containerd 2): the Node and its Lease, kept as a kubelet keeps them, and no pods.
export { startRegistration, stopRegistration, type RunningRegistration } from "./start";
