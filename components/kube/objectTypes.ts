// Plain shapes of the Kubernetes objects built in this folder: only the fields used here, all of
// them plain data. The builders stay free of Pulumi (and of any runtime dependency), so tests read
// the objects field by field, and the component passes them to @pulumi/kubernetes unchanged.

export interface ObjectMeta {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
}

export interface Namespace {
    apiVersion: "v1";
    kind: "Namespace";
    metadata: ObjectMeta;
}

export interface ServiceAccount {
    apiVersion: "v1";
    kind: "ServiceAccount";
    metadata: ObjectMeta;
}

export interface ConfigMap {
    apiVersion: "v1";
    kind: "ConfigMap";
    metadata: ObjectMeta;
    data: Record<string, string>;
}

export interface PolicyRule {
    apiGroups: string[];
    resources: string[];
    verbs: string[];
    resourceNames?: string[];
}

export interface RoleRef {
    apiGroup: "rbac.authorization.k8s.io";
    kind: "ClusterRole" | "Role";
    name: string;
}

export interface ServiceAccountSubject {
    kind: "ServiceAccount";
    name: string;
    namespace: string;
}

/** A group of users, e.g. the nodes' own identities (`system:ovn-nodes`). */
export interface GroupSubject {
    kind: "Group";
    name: string;
    apiGroup: "rbac.authorization.k8s.io";
}

export interface ClusterRole {
    apiVersion: "rbac.authorization.k8s.io/v1";
    kind: "ClusterRole";
    metadata: ObjectMeta;
    rules: PolicyRule[];
}

export interface Role {
    apiVersion: "rbac.authorization.k8s.io/v1";
    kind: "Role";
    metadata: ObjectMeta;
    rules: PolicyRule[];
}

export interface ClusterRoleBinding {
    apiVersion: "rbac.authorization.k8s.io/v1";
    kind: "ClusterRoleBinding";
    metadata: ObjectMeta;
    roleRef: RoleRef;
    subjects: Array<ServiceAccountSubject | GroupSubject>;
}

export interface RoleBinding {
    apiVersion: "rbac.authorization.k8s.io/v1";
    kind: "RoleBinding";
    metadata: ObjectMeta;
    roleRef: RoleRef;
    subjects: Array<ServiceAccountSubject | GroupSubject>;
}

export interface EnvVar {
    name: string;
    valueFrom: {
        configMapKeyRef?: { name: string; key: string; optional: boolean };
        fieldRef?: { fieldPath: string };
    };
}

export interface VolumeMount {
    name: string;
    mountPath: string;
    readOnly?: boolean;
    mountPropagation?: "HostToContainer";
}

export interface HostPathVolume {
    name: string;
    hostPath: { path: string; type: "Directory" | "DirectoryOrCreate" | "File" };
}

export interface SecretVolume {
    name: string;
    secret: { secretName: string; defaultMode: number };
}

export interface SecurityContext {
    privileged: boolean;
    allowPrivilegeEscalation?: boolean;
}

export interface Container {
    name: string;
    image: string;
    imagePullPolicy: "IfNotPresent";
    command: string[];
    args?: string[];
    env?: EnvVar[];
    securityContext: SecurityContext;
    resources: { requests: { cpu: string; memory: string } };
    volumeMounts?: VolumeMount[];
    readinessProbe?: { exec: { command: string[] }; periodSeconds: number };
    terminationMessagePolicy: "FallbackToLogsOnError";
}

export interface Toleration {
    operator: "Exists";
}

export interface NodeAffinity {
    requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: Array<{
            matchFields: Array<{ key: "metadata.name"; operator: "In"; values: string[] }>;
        }>;
    };
}

export interface PodSpec {
    serviceAccountName: string;
    hostNetwork: boolean;
    hostPID: boolean;
    dnsPolicy: "Default";
    priorityClassName: "system-node-critical" | "system-cluster-critical";
    nodeSelector: Record<string, string>;
    affinity?: { nodeAffinity: NodeAffinity };
    tolerations: Toleration[];
    initContainers?: Container[];
    containers: Container[];
    volumes?: Array<HostPathVolume | SecretVolume>;
}

export interface DaemonSet {
    apiVersion: "apps/v1";
    kind: "DaemonSet";
    metadata: ObjectMeta;
    spec: {
        selector: { matchLabels: Record<string, string> };
        updateStrategy: { type: "RollingUpdate"; rollingUpdate: { maxUnavailable: number | string } };
        template: {
            metadata: { labels: Record<string, string>; annotations: Record<string, string> };
            spec: PodSpec;
        };
    };
}

/**
 * A server-side apply body for a Node that exists already (the kubelet registers it): only the
 * fields this project owns, so applying it touches nothing else on the Node.
 */
export interface NodePatch {
    apiVersion: "v1";
    kind: "Node";
    metadata: { name: string; labels?: Record<string, string>; annotations: Record<string, string> };
}

/** A TLS key pair (type kubernetes.io/tls), values as the API takes `stringData`. */
export interface TlsSecret {
    apiVersion: "v1";
    kind: "Secret";
    metadata: ObjectMeta;
    type: "kubernetes.io/tls";
    stringData: { "tls.crt": string; "tls.key": string };
}

export interface ValidatingWebhookConfiguration {
    apiVersion: "admissionregistration.k8s.io/v1";
    kind: "ValidatingWebhookConfiguration";
    metadata: ObjectMeta;
    webhooks: Array<{
        name: string;
        /** caBundle: the base64 PEM of the CA that signed the webhook's certificate. */
        clientConfig: { url: string; caBundle?: string };
        admissionReviewVersions: string[];
        sideEffects: "None";
        failurePolicy: "Fail";
        matchConditions?: Array<{ name: string; expression: string }>;
        rules: Array<{ operations: string[]; apiGroups: string[]; apiVersions: string[]; resources: string[]; scope: "*" }>;
    }>;
}

export type KubeObject =
    Namespace | ServiceAccount | ConfigMap | ClusterRole | ClusterRoleBinding | Role | RoleBinding | NodePatch | DaemonSet;
