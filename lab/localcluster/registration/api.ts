// The API calls a kubelet makes for its Node, with the node's own credentials (user
// system:node:<name>, group system:nodes), which the Node authorizer and NodeRestriction admit:
// its Node and its status, its Lease. A Lease update (PUT) goes to the transport by path.
import { KubeClient, ObjectRef } from "../../kubeclient";
import type { Lease, Node } from "./types";

export const NODE_LEASE_NAMESPACE = "kube-node-lease";

const enc = encodeURIComponent;
const nodeRef = (name: string): ObjectRef => ({ apiVersion: "v1", kind: "Node", name });
const leaseRef = (name: string): ObjectRef => ({
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    namespace: NODE_LEASE_NAMESPACE,
    name,
});

export class NodeApi {
    constructor(readonly client: KubeClient) {}

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
