// The URNs a registration may have had before, from its aliases, as the Pulumi engine derives them
// (pulumi pkg/resource/deploy/step_generator.go at 1b59498: collapseAliasToUrn, line 545;
// inheritedChildAlias, line 590; generateAliases, line 621): each alias filled in from the
// registration (name, type, parent, project, stack), a parent that was itself found by an alias
// standing for its old URN, and every child of an aliased parent also sought under that old parent.
import { urnFor, type AliasSpec } from "./urn";

export type { AliasSpec };

export interface AliasScope {
    stack: string;
    project: string;
    /** The old URN a registration of this run was found under by an alias, if it was. */
    aliasedFrom(urn: string): string | undefined;
}

const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);
const typeChainOf = (urn: string) => urn.split("::")[2];
const lastType = (urn: string) => typeChainOf(urn).split("$").pop()!;

function collapse(reg: { name: string; type: string; parent: string }, alias: AliasSpec, scope: AliasScope): string {
    if ("urn" in alias) return alias.urn;
    let parent = alias.parentUrn || reg.parent;
    if (alias.parentUrn) parent = scope.aliasedFrom(parent) ?? parent;
    if (alias.noParent) parent = "";
    return urnFor(alias.stack || scope.stack, alias.project || scope.project, parent, alias.type || reg.type, alias.name || reg.name);
}

/** A child's URN under its parent's old URN; a name that began with the parent's name begins with the old one. */
function inherited(childType: string, childName: string, parentName: string, parentAlias: string, scope: AliasScope): string {
    const name = childName.startsWith(parentName) ? nameOf(parentAlias) + childName.slice(parentName.length) : childName;
    return urnFor(scope.stack, scope.project, parentAlias, childType, name);
}

/** Every URN the registration may have had, in the engine's order, without repeats. */
export function aliasUrns(reg: { name: string; type: string; parent: string }, aliases: readonly AliasSpec[], scope: AliasScope): string[] {
    const found = new Set(aliases.map((a) => collapse(reg, a, scope)));
    const parentAlias = reg.parent ? scope.aliasedFrom(reg.parent) : undefined;
    if (parentAlias) {
        const parentName = nameOf(reg.parent);
        found.add(inherited(reg.type, reg.name, parentName, parentAlias, scope));
        for (const a of aliases) {
            const childAlias = collapse(reg, a, scope);
            found.add(inherited(lastType(childAlias), nameOf(childAlias), parentName, parentAlias, scope));
        }
    }
    return [...found];
}
