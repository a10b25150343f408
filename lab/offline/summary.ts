// Text the CLI prints, shaped like the Pulumi CLI's: one line per resource that changed
// (+ create, ~ update, +- replace, - delete), the stack outputs (secrets masked), drift, totals.
// Only names, types, input names and property paths appear here, never values of inputs.
import type { Counts, OperationResult, ResourceOp } from "./results";

const SIGN: Record<ResourceOp["op"], string> = {
    create: "+ ",
    update: "~ ",
    replace: "+-",
    delete: "- ",
    "delete-replaced": "--",
    same: "  ",
};
const DONE: Record<ResourceOp["op"], [string, string]> = {
    create: ["created", "create"],
    update: ["updated", "update"],
    replace: ["replaced", "replace"],
    delete: ["deleted", "delete"],
    "delete-replaced": ["deleted original", "delete original"],
    same: ["unchanged", "unchanged"],
};

export const heading = (operation: OperationResult["operation"], stack: string, dryRun: boolean) =>
    ({
        up: dryRun ? `Previewing update (${stack}):` : `Updating (${stack}):`,
        preview: `Previewing update (${stack}):`,
        refresh: dryRun ? `Previewing refresh (${stack}):` : `Refreshing (${stack}):`,
        destroy: dryRun ? `Previewing destroy (${stack}):` : `Destroying (${stack}):`,
    })[operation];

export function opLine(o: ResourceOp, dryRun: boolean): string {
    const [done, planned] = DONE[o.op];
    const status = o.error ? "**failed**" : dryRun ? planned : done;
    // The property paths of the engine's DetailedDiff when there is one, else the input names.
    const names = o.detailedDiff ? Object.keys(o.detailedDiff).sort() : o.keys;
    const keys = names.length > 0 ? ` [${names.join(", ")}]` : "";
    const time = dryRun || o.error ? "" : ` (${(o.ms / 1000).toFixed(1)}s)`;
    return ` ${SIGN[o.op]} ${o.type.padEnd(44)} ${o.name.padEnd(28)} ${status}${keys}${time}`;
}

function totals(c: Counts, dryRun: boolean): string[] {
    const lines: [number, string, string, string][] = [
        [c.created, "+ ", "created", "to create"],
        [c.updated, "~ ", "updated", "to update"],
        [c.replaced, "+-", "replaced", "to replace"],
        [c.deleted, "- ", "deleted", "to delete"],
    ];
    const out = lines.filter(([n]) => n > 0).map(([n, sign, done, planned]) => `    ${sign}${n} ${dryRun ? planned : done}`);
    if (c.unchanged > 0) out.push(`    ${c.unchanged} unchanged`);
    return out.length > 0 ? out : ["    no resources"];
}

export function footer(r: OperationResult): string {
    // Stopped before anything ran (no stack file, wrong passphrase): the reason is all there is to say.
    if (!r.ok && r.ops.length === 0) return `\nerror: ${r.error}`;
    const out: string[] = [""];
    if (r.operation !== "refresh" && Object.keys(r.outputs).length > 0) {
        out.push("Outputs:");
        for (const [k, v] of Object.entries(r.outputs)) out.push(`    ${k}: ${JSON.stringify(v)}`);
        out.push("");
    }
    if (r.operation === "refresh" || r.drift.length > 0) {
        out.push(r.drift.length === 0 ? "Drift: none" : "Drift:");
        for (const d of r.drift)
            out.push(
                `    ${d.change === "deleted" ? "- " : "~ "}${d.type} ${d.name}${d.keys.length ? ` [${d.keys.join(", ")}]` : " (gone)"}`,
            );
        out.push("");
    }
    out.push("Resources:", ...totals(r.counts, r.dryRun), "", `Duration: ${(r.ms / 1000).toFixed(1)}s`);
    if (!r.ok) out.push("", `error: ${r.error}`);
    return out.join("\n");
}
