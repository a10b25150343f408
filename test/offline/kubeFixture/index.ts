// The project's Ovnkube component (namespace, ServiceAccount, RBAC, ConfigMap ovn-config and the
// ovnkube DaemonSets) with an explicit Kubernetes provider built from the secret config key
// `kubeconfig`, as the real program creates it; the model is the test model of the kube tests.
// No hosts are involved, so the offline apply's Kubernetes path is tested on its own.
import * as pulumi from "@pulumi/pulumi";
import { Ovnkube } from "../../../components/kube/ovnkubeComponent";
import { kubeModel } from "../../kube/fixture";

const config = new pulumi.Config();
const ovnkube = new Ovnkube("ovn-ovnkube", { model: kubeModel(), kubeconfig: config.requireSecret("kubeconfig") });

export const namespace = ovnkube.namespace;
