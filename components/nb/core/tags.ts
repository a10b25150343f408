// Ownership tags: every NB row this stack creates carries them in external_ids, and rows are
// found by them, never by name. Logical_Switch, Logical_Router and Load_Balancer names are not
// unique in NB (and an operator may create a switch named like a node), so a name says nothing
// about who owns a row; the tags do.

/** `<project>/<stack>` of the Pulumi stack that owns the row. */
export const TAG_OWNER = "pulumi-owner";
/** The resource (group of rows) that owns the row, e.g. `node/kube-minion1`. */
export const TAG_GROUP = "pulumi-group";
/** The row's stable key inside its group, e.g. `mgmt-port`: survives renames and UUID changes. */
export const TAG_ROW = "pulumi-row";

/** Group ids: one per resource, derived from the model so both the owner and dependants agree. */
export const clusterGroup = (router: string) => `cluster/${router}`;
export const nodeGroup = (node: string) => `node/${node}`;
export const gatewayGroup = (node: string) => `gateway/${node}`;
export const vtepGroup = (node: string) => `vtep/${node}`;

export function ownerTags(owner: string, group: string, row?: string): Record<string, string> {
    const tags: Record<string, string> = { [TAG_OWNER]: owner, [TAG_GROUP]: group };
    if (row !== undefined) tags[TAG_ROW] = row;
    return tags;
}
