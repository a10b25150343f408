// The plan ovnkube is fed through the Node objects: per node, the subnet and the node-id the model
// decided. The cluster manager keeps a node subnet found in `k8s.ovn.org/node-subnets` (when it lies
// in the cluster network and no other node has it) and reserves the id found in `k8s.ovn.org/node-id`
// for nodes that exist when it starts (clustermanager/zone_cluster_controller.go syncNodeIDs);
// everything else on the Node it derives from these and from the host.
import { createHash } from "node:crypto";
import type { KubeModel, OvnkubeNodeModel } from "../model/types";
import {
    DEFAULT_NETWORK,
    NODE_GROUP_LABEL,
    NODE_ID_ANNOTATION,
    NODE_SUBNETS_ANNOTATION,
    NODE_TRANSIT_ANNOTATION,
    ZONE_LABEL,
} from "./objectNames";
import type { NodePatch } from "./objectTypes";
import { EGRESS_ASSIGNABLE_LABEL } from "../config/features";
import { familyOf } from "../values";

/** `{"ipv4": …, "ipv6": …}`, the form of ovnkube's per-family annotations (util/node_annotations.go). */
const byFamily = (cidrs: readonly string[]): Record<string, string> => Object.fromEntries(cidrs.map((c) => [familyOf(c)!, c]));

/**
 * How the patches are applied (server-side apply). One fixed field manager, so a renamed resource
 * or a second stack for the same cluster applies as the same owner. Forced, because ovnkube writes
 * these annotations too (through nodes/status): had it ever changed one, an unforced apply would
 * stop on the conflict instead of restoring the plan.
 */
export const NODE_PLAN_APPLY = { fieldManager: "ovn-kubernetes-node-plan", force: true } as const;

/**
 * The annotations of one node, in the form ovnkube itself writes: node-subnets as a JSON map of
 * network name to a list (the list form, so ovnkube finds its own encoding and never rewrites it),
 * node-id as a decimal string.
 */
export function nodePlanAnnotations(node: OvnkubeNodeModel, architecture: KubeModel["architecture"]): Record<string, string> {
    return {
        [NODE_SUBNETS_ANNOTATION]: JSON.stringify({ [DEFAULT_NETWORK]: node.subnets }),
        [NODE_ID_ANNOTATION]: String(node.nodeId),
        // Interconnect: the transit address changes in the same update as the subnet and id. Other
        // zones route a remote node's subnets via its transit address and never delete a route whose
        // next hop changed (zone_ic_handler.go:653-673 at v1.3.0), so a node seen with its planned
        // subnet but an old transit address would keep a dead ECMP path to it.
        ...(architecture === "interconnect" && node.transit
            ? { [NODE_TRANSIT_ANNOTATION]: JSON.stringify(byFamily(node.transit.map((t) => t.cidr))) }
            : {}),
    };
}

/**
 * The Node carries its node group (the ovnkube-node DaemonSet that selects it), with interconnect
 * its zone as the label upstream's docs ask for (ovnkube.sh reads it to pick `--zone`; the project
 * passes the same name directly), and, when it may hold egress IPs, the label ovnkube's cluster
 * manager assigns them by (util/node_annotations.go:99 at v1.3.0). A label the plan stops carrying
 * is removed by the next apply: the field manager owned it.
 */
export function nodePlanPatch(node: OvnkubeNodeModel, architecture: KubeModel["architecture"], group: string): NodePatch {
    const labels = {
        [NODE_GROUP_LABEL]: group,
        ...(architecture === "interconnect" ? { [ZONE_LABEL]: node.name } : {}),
        ...(node.egressAssignable ? { [EGRESS_ASSIGNABLE_LABEL]: "" } : {}),
    };
    return { apiVersion: "v1", kind: "Node", metadata: { name: node.name, labels, annotations: nodePlanAnnotations(node, architecture) } };
}

/** One patch per planned node, in the model's order. */
export function nodePlanPatches(model: KubeModel): NodePatch[] {
    const groupOf = new Map(model.nodeGroups.flatMap((g) => g.nodes.map((n) => [n, g.name])));
    return model.nodes.map((node) => {
        const group = groupOf.get(node.name);
        if (group === undefined) throw new Error(`kubernetes: node ${node.name} is in no ovnkube-node group`);
        return nodePlanPatch(node, model.architecture, group);
    });
}

/**
 * The same body as @pulumi/kubernetes' NodePatch takes it: the provider reads its server-side
 * apply options from these annotations (which it also leaves on the Node).
 */
export function asPulumiNodePatch(patch: NodePatch): NodePatch {
    return {
        ...patch,
        metadata: {
            ...patch.metadata,
            annotations: {
                ...patch.metadata.annotations,
                "pulumi.com/patchFieldManager": NODE_PLAN_APPLY.fieldManager,
                "pulumi.com/patchForce": String(NODE_PLAN_APPLY.force),
            },
        },
    };
}

/** Annotation on the control plane's pod template carrying the digest of the node plan. */
export const NODE_PLAN_HASH_ANNOTATION = "checksum/node-plan";

/**
 * Digest of every node's planned node-id and subnet, put on the control plane's pod template. The
 * cluster manager keeps a pre-set node-id only for the nodes it finds when it starts (syncNodeIDs,
 * clustermanager/zone_cluster_controller.go:209-239); a node that registers while it runs gets the
 * next free id at once (:155-165), before any plan can reach its Node. A changed plan (a node added)
 * therefore rolls the control plane after the plan is on the Nodes: on restart it reserves the
 * planned ids and rewrites the ids and transit addresses it gave meanwhile, so no id is written by two.
 */
export function nodePlanHash(model: KubeModel): string {
    // A single-stack node hashes its one subnet as it always has, so that no cluster rolls for dual stack's sake.
    const plan = model.nodes.map((n) => [n.name, n.nodeId, n.subnets.length === 1 ? n.subnets[0] : n.subnets]).sort();
    return createHash("sha256").update(JSON.stringify(plan)).digest("hex");
}
