// The API calls a kubelet makes, with the node's own credentials (user system:node:<name>, group
// system:nodes): the Node authorizer lets it read the pods bound to it and the ConfigMaps,
// Secrets and service-account tokens those pods use, write its Node, its Lease and its pods'
// status, and confirm their deletion. What the client has no verb for (TokenRequest, a delete
// with a uid precondition, a Lease update) goes to the transport by path.
import { KubeClient, ObjectRef, isNotFound } from "../../kubeclient";
import type { ConfigMap, Lease, Node, Pod, PodStatus, Secret, Service, TokenRequest } from "./types";

export const NODE_LEASE_NAMESPACE = "kube-node-lease";

const enc = encodeURIComponent;
const podRef = (p: Pod): ObjectRef => ({ apiVersion: "v1", kind: "Pod", namespace: p.metadata!.namespace!, name: p.metadata!.name! });
const nodeRef = (name: string): ObjectRef => ({ apiVersion: "v1", kind: "Node", name });
const leaseRef = (name: string): ObjectRef => ({ apiVersion: "coordination.k8s.io/v1", kind: "Lease", namespace: NODE_LEASE_NAMESPACE, name });

export class KubeletApi {
    constructor(readonly client: KubeClient) {}

    async podsOnNode(node: string): Promise<Pod[]> {
        return (await this.client.list("v1", "Pod", { fieldSelector: `spec.nodeName=${node}` })) as unknown as Pod[];
    }

    /**
     * Status update as the kubelet's status manager sends it: strategic merge (conditions merge by
     * type, so other owners' conditions stay), the pod's uid as precondition. A merge leaves fields
     * the patch omits as they were, so a condition's unset reason and message are sent as null, and
     * the address lists (merged by ip) are replaced whole: a new sandbox has a new address.
     */
    async patchPodStatus(pod: Pod, status: PodStatus): Promise<Pod> {
        const conditions = status.conditions?.map((c) => ({ ...c, reason: c.reason ?? null, message: c.message ?? null }));
        const replace = <T>(list: T[] | undefined) => (list ? [{ $patch: "replace" }, ...list] : undefined);
        const body = { metadata: { uid: pod.metadata!.uid }, status: { ...status, conditions, podIPs: replace(status.podIPs), hostIPs: replace(status.hostIPs) } };
        return (await this.client.patch(podRef(pod), body, "strategic", { subresource: "status" })) as unknown as Pod;
    }

    /** Confirms a pod's termination: delete with grace 0, only this incarnation (uid). */
    async confirmPodDeletion(pod: Pod): Promise<void> {
        const m = pod.metadata!;
        try {
            await this.client.transport.request("DELETE", `/api/v1/namespaces/${enc(m.namespace!)}/pods/${enc(m.name!)}`, {
                body: { apiVersion: "v1", kind: "DeleteOptions", gracePeriodSeconds: 0, preconditions: { uid: m.uid } },
            });
        } catch (e) {
            if (!isNotFound(e)) throw e;
        }
    }

    /** undefined when it does not exist. */
    async configMap(namespace: string, name: string): Promise<ConfigMap | undefined> {
        return (await this.client.tryGet({ apiVersion: "v1", kind: "ConfigMap", namespace, name })) as unknown as ConfigMap | undefined;
    }

    async secret(namespace: string, name: string): Promise<Secret | undefined> {
        return (await this.client.tryGet({ apiVersion: "v1", kind: "Secret", namespace, name })) as unknown as Secret | undefined;
    }

    async services(): Promise<Service[]> {
        return (await this.client.list("v1", "Service")) as unknown as Service[];
    }

    /** A service-account token bound to the pod (TokenRequest), as the projected volume needs it. */
    async requestToken(pod: Pod, audiences: string[], expirationSeconds: number): Promise<{ token: string; expirationTimestamp: string }> {
        const m = pod.metadata!;
        const sa = pod.spec?.serviceAccountName || "default";
        const body: TokenRequest = {
            apiVersion: "authentication.k8s.io/v1",
            kind: "TokenRequest",
            spec: { audiences, expirationSeconds, boundObjectRef: { apiVersion: "v1", kind: "Pod", name: m.name, uid: m.uid } },
        };
        const tr = await this.client.transport.request<TokenRequest>("POST", `/api/v1/namespaces/${enc(m.namespace!)}/serviceaccounts/${enc(sa)}/token`, { body });
        return { token: tr.status!.token, expirationTimestamp: tr.status!.expirationTimestamp };
    }

    async createNode(node: Node): Promise<Node> {
        return (await this.client.create(node as never)) as unknown as Node;
    }

    async patchNode(name: string, patch: unknown): Promise<Node> {
        return (await this.client.patch(nodeRef(name), patch, "strategic")) as unknown as Node;
    }

    async patchNodeStatus(name: string, patch: unknown): Promise<Node> {
        return (await this.client.patch(nodeRef(name), patch, "strategic", { subresource: "status" })) as unknown as Node;
    }

    async lease(name: string): Promise<Lease | undefined> {
        return (await this.client.tryGet(leaseRef(name))) as unknown as Lease | undefined;
    }

    async createLease(lease: Lease): Promise<Lease> {
        return (await this.client.create(lease as never)) as unknown as Lease;
    }

    /** PUT with the lease's resourceVersion: a concurrent writer makes it fail with a conflict. */
    async updateLease(lease: Lease): Promise<Lease> {
        const path = `/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases/${enc(lease.metadata!.name!)}`;
        return this.client.transport.request<Lease>("PUT", path, { body: lease });
    }
}
