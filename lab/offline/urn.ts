// Resource URNs as the engine forms them, and the aliases the SDK sends for a URN a resource had before.

export function urnFor(stack: string, project: string, parentUrn: string, type: string, name: string): string {
    // A child's URN type is its parent's type chain plus its own; the root stack is not in the chain.
    const parentType = parentUrn ? parentUrn.split("::")[2] : "";
    const chain = !parentType || parentType === "pulumi:pulumi:Stack" ? type : `${parentType}$${type}`;
    return `urn:pulumi:${stack}::${project}::${chain}::${name}`;
}

/** One alias as the SDK sends it when the monitor supports alias specs (proto/alias.proto). */
export type AliasSpec =
    { urn: string } | { name: string; type: string; stack: string; project: string; parentUrn: string; noParent: boolean };
