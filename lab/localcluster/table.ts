// Plain-text rendering of a cluster's status for the CLI.
import { ClusterStatus } from "./status";

/** Left-aligned columns separated by two spaces. */
export function formatTable(rows: string[][]): string {
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    return rows
        .map((r) =>
            r
                .map((cell, c) => cell.padEnd(widths[c]))
                .join("  ")
                .trimEnd(),
        )
        .join("\n");
}

export function formatStatus(s: ClusterStatus): string {
    if (!s.up) {
        const left = [...s.netns, ...(s.bridgePresent ? [s.bridge] : [])];
        return `local cluster ${s.id}: not up${left.length ? ` (leftovers: ${left.join(", ")}; run down)` : ""}`;
    }
    const head =
        `local cluster ${s.id}: ${s.healthy ? "healthy" : "DEGRADED"}  underlay ${s.subnet}  bridge ${s.bridge}${s.bridgePresent ? "" : " (missing)"}` +
        `  external ${s.external?.ip} (${s.external?.ns}${s.external?.present ? "" : ", missing"})`;
    const rows = [["HOST", "ADDRESS", "OS", "HOLDER", "SSHD", "SSH"]];
    for (const h of s.hosts) {
        rows.push([
            h.name,
            h.ip,
            h.os,
            h.holderAlive ? String(h.holderPid) : "dead",
            h.sshdPid ? String(h.sshdPid) : "-",
            h.reachable ? "ok" : "unreachable",
        ]);
    }
    return `${head}\n${formatTable(rows)}`;
}
