// Validation of the plain objects against the Kubernetes OpenAPI schema (kubernetes-models), one
// model class per kind the project creates.
import { DaemonSet } from "kubernetes-models/apps/v1/DaemonSet";
import { ClusterRole } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole";
import { ClusterRoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding";
import { Role } from "kubernetes-models/rbac.authorization.k8s.io/v1/Role";
import { RoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { Node } from "kubernetes-models/v1/Node";
import { Secret } from "kubernetes-models/v1/Secret";
import { ServiceAccount } from "kubernetes-models/v1/ServiceAccount";
import { ValidatingWebhookConfiguration } from "kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration";
import type { KubeObject, TlsSecret, ValidatingWebhookConfiguration as Webhooks } from "../../components/kube/objectTypes";

/** Throws, naming the field, when `obj` breaks its kind's schema. */
export function validateObject(obj: KubeObject | TlsSecret | Webhooks): void {
    // kubernetes-models types are stricter than our plain shapes in places (literal unions);
    // validation is what matters, so the data is handed over as it is.
    const data = obj as never;
    switch (obj.kind) {
        case "Namespace":
            return new Namespace(data).validate();
        case "ServiceAccount":
            return new ServiceAccount(data).validate();
        case "ConfigMap":
            return new ConfigMap(data).validate();
        case "ClusterRole":
            return new ClusterRole(data).validate();
        case "ClusterRoleBinding":
            return new ClusterRoleBinding(data).validate();
        case "Role":
            return new Role(data).validate();
        case "RoleBinding":
            return new RoleBinding(data).validate();
        case "Node":
            return new Node(data).validate();
        case "DaemonSet":
            return new DaemonSet(data).validate();
        case "Secret":
            return new Secret(data).validate();
        case "ValidatingWebhookConfiguration":
            return new ValidatingWebhookConfiguration(data).validate();
    }
}
