// ovnkube-identity, as upstream's chart deploys it (helm/ovn-kubernetes/charts/ovnkube-identity at
// v1.3.0): on the masters, the approver of the nodes' certificate requests (CN
// `system:ovn-node:<node>`, group `system:ovn-nodes`) and the admission webhook that lets a node's
// certificate change only its own Node's and pods' k8s.ovn.org annotations
// (go-controller/pkg/ovnwebhook/nodeadmission.go, podadmission.go). The certificate it serves is
// the program's (./webhookCertificate.ts): the Ovnkube component adds it to the Secret and the
// webhooks (`caBundle`) built here.
import { familyOf } from "../values";
import type { KubeModel } from "../model/types";
import { configEnv } from "./configMap";
import { onNodes, ovnkubeDaemonSet } from "./daemonset";
import { COMMON_LABELS, CONTROL_PLANE_LABEL, OS_LABEL } from "./objectNames";
import { NODE_IP_ENV } from "./ovnkubeArgs";
import type {
    ClusterRole,
    ClusterRoleBinding,
    DaemonSet,
    Role,
    RoleBinding,
    ServiceAccount,
    TlsSecret,
    ValidatingWebhookConfiguration,
} from "./objectTypes";

export const IDENTITY = "ovnkube-identity";
/** Every node's certificate user is in this group (GC/csrapprover/approver.go). */
export const OVN_NODES_GROUP = "system:ovn-nodes";
/** The prefix of a node's certificate user: `system:ovn-node:<node>`. */
export const OVN_NODE_USER_PREFIX = "system:ovn-node:";
export const WEBHOOK_SECRET = "ovnkube-webhook-cert";
export const WEBHOOK_PORT = 9443;
const CERT_DIR = "/etc/webhook-cert";
export const NODE_WEBHOOK = "ovn-kubernetes-admission-webhook-node";
export const POD_WEBHOOK = "ovn-kubernetes-admission-webhook-pod";
/** The Lease its approver elects a leader with (cmd/ovnkube-identity). */
export const IDENTITY_LEASE = "ovnkube-identity";
const IDENTITY_BINARY = "/usr/bin/ovnkube-identity";
const RBAC = "ovn-kubernetes-identity";

/** The API server dials this: the name or address the serving certificate must carry. */
export const webhookUrl = (model: KubeModel, path: "node" | "pod") => {
    const host = model.identity!.webhookAddress;
    // An IPv6 address goes in brackets in a URL (RFC 3986 3.2.2).
    return `https://${familyOf(host) === "ipv6" ? `[${host}]` : host}:${WEBHOOK_PORT}/${path}`;
};

const labels = () => ({ ...COMMON_LABELS });

export function identityServiceAccount(model: KubeModel): ServiceAccount {
    return { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: IDENTITY, namespace: model.namespace, labels: labels() } };
}

/** What the approver and webhook read, and the approval itself (ID/rbac-ovnkube-identity.yaml). */
export function identityClusterRole(): ClusterRole {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRole",
        metadata: { name: RBAC, labels: labels() },
        rules: [
            { apiGroups: [""], resources: ["nodes"], verbs: ["get", "list", "watch"] },
            { apiGroups: ["certificates.k8s.io"], resources: ["certificatesigningrequests"], verbs: ["get", "list", "watch"] },
            { apiGroups: ["certificates.k8s.io"], resources: ["certificatesigningrequests/approval"], verbs: ["update"] },
            {
                apiGroups: ["certificates.k8s.io"],
                resources: ["signers"],
                resourceNames: ["kubernetes.io/kube-apiserver-client"],
                verbs: ["approve"],
            },
            { apiGroups: [""], resources: ["events"], verbs: ["create", "patch", "update"] },
        ],
    };
}

export function identityClusterRoleBinding(model: KubeModel): ClusterRoleBinding {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRoleBinding",
        metadata: { name: RBAC, labels: labels() },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: RBAC },
        subjects: [{ kind: "ServiceAccount", name: IDENTITY, namespace: model.namespace }],
    };
}

/** The approver's leader Lease in the namespace, confined to its name. */
export function identityRole(model: KubeModel): Role {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "Role",
        metadata: { name: RBAC, namespace: model.namespace, labels: labels() },
        rules: [
            { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["create"] },
            { apiGroups: ["coordination.k8s.io"], resources: ["leases"], resourceNames: [IDENTITY_LEASE], verbs: ["get", "update"] },
        ],
    };
}

export function identityRoleBinding(model: KubeModel): RoleBinding {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "RoleBinding",
        metadata: { name: RBAC, namespace: model.namespace, labels: labels() },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: RBAC },
        subjects: [{ kind: "ServiceAccount", name: IDENTITY, namespace: model.namespace }],
    };
}

/**
 * ovnkube-identity's command line (ovnkube.sh `ovnkube-identity`): the control plane's account may
 * still write node annotations the webhook guards (the cluster manager's), and with interconnect
 * the pod webhook is served too. It listens where its URL points: localhost, or the master's own
 * address.
 */
export function identityArgs(model: KubeModel, controlPlaneAccount: string): string[] {
    const listen = model.identity!.listen === "localhost" ? "localhost" : `$(${NODE_IP_ENV})`;
    return [
        "--k8s-apiserver=$(K8S_APISERVER)",
        `--webhook-cert-dir=${CERT_DIR}`,
        `--webhook-host=${listen}`,
        `--webhook-port=${WEBHOOK_PORT}`,
        ...(model.architecture === "interconnect" ? ["--enable-interconnect"] : []),
        `--extra-allowed-user=system:serviceaccount:${model.namespace}:${controlPlaneAccount}`,
        `--lease-namespace=${model.namespace}`,
        "--loglevel=4",
    ];
}

export function identityDaemonSet(model: KubeModel, controlPlaneAccount: string): DaemonSet {
    return ovnkubeDaemonSet(model, IDENTITY, IDENTITY, 1, {
        serviceAccountName: IDENTITY,
        hostPID: false,
        priorityClassName: "system-cluster-critical",
        nodeSelector: { [CONTROL_PLANE_LABEL]: "", [OS_LABEL]: "linux" },
        affinity: { nodeAffinity: onNodes(model.masterNodes) },
        containers: [
            {
                name: IDENTITY,
                image: model.image,
                imagePullPolicy: "IfNotPresent",
                command: [IDENTITY_BINARY],
                args: identityArgs(model, controlPlaneAccount),
                env: [{ name: NODE_IP_ENV, valueFrom: { fieldRef: { fieldPath: "status.hostIP" } } }, ...configEnv(model)],
                securityContext: { privileged: false, allowPrivilegeEscalation: false },
                resources: { requests: { cpu: "100m", memory: "300Mi" } },
                volumeMounts: [{ name: "webhook-cert", mountPath: CERT_DIR, readOnly: true }],
                terminationMessagePolicy: "FallbackToLogsOnError",
            },
        ],
        volumes: [{ name: "webhook-cert", secret: { secretName: WEBHOOK_SECRET, defaultMode: 0o400 } }],
    });
}

/** The serving key pair's Secret, as ovnkube-identity reads it from its certificate directory: `tls.crt` and `tls.key` in stringData. */
export function webhookSecret(model: KubeModel): Omit<TlsSecret, "stringData"> {
    return {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: WEBHOOK_SECRET, namespace: model.namespace, labels: labels() },
        type: "kubernetes.io/tls",
    };
}

/**
 * The webhooks (ID/webhook.yaml): node status updates, and with interconnect pod status updates
 * except ovnkube-identity's own pods. failurePolicy Fail, the API's default, written out: a
 * missing webhook must stop such updates, not wave them through.
 */
export function webhookConfigurations(model: KubeModel): ValidatingWebhookConfiguration[] {
    const webhook = (
        name: string,
        path: "node" | "pod",
        resource: string,
        matchConditions?: Array<{ name: string; expression: string }>,
    ): ValidatingWebhookConfiguration => ({
        apiVersion: "admissionregistration.k8s.io/v1",
        kind: "ValidatingWebhookConfiguration",
        metadata: { name, labels: labels() },
        webhooks: [
            {
                name: `${name}.k8s.io`,
                clientConfig: { url: webhookUrl(model, path) },
                admissionReviewVersions: ["v1"],
                sideEffects: "None",
                failurePolicy: "Fail",
                ...(matchConditions ? { matchConditions } : {}),
                rules: [{ operations: ["UPDATE"], apiGroups: ["*"], apiVersions: ["*"], resources: [resource], scope: "*" }],
            },
        ],
    });
    const self = `!(request.namespace == "${model.namespace}" && has(object.metadata.labels) && "name" in object.metadata.labels && object.metadata.labels["name"] == "${IDENTITY}")`;
    return [
        webhook(NODE_WEBHOOK, "node", "nodes/status"),
        ...(model.architecture === "interconnect"
            ? [webhook(POD_WEBHOOK, "pod", "pods/status", [{ name: "skip-ovnkube-identity-self-pods", expression: self }])]
            : []),
    ];
}
