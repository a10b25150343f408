// Settings that are valid but unsafe outside a lab: validation passes, and validate and the
// program say so on every run, so an unsafe production stack never goes unnoticed.
import type { Problem } from "./problem";
import type { StackConfig } from "./types";

export function configWarnings(cfg: StackConfig): Problem[] {
    const warnings: Problem[] = [];
    // Validation refuses a loopback central, so plain tcp always crosses a network.
    const central = cfg.nodes.find((n) => n.roles.includes("central"));
    if (cfg.ovnTransport.protocol === "tcp" && central)
        warnings.push({
            path: "ovnTransport.protocol",
            message: `tcp: the Northbound and Southbound databases listen unencrypted and unauthenticated on ${central.tunnelIp}; use ssl in production (ovnSslPrivateKey, ovnSslCertificate, ovnSslCaCertificate)`,
        });
    return warnings;
}

/**
 * Nodes renamed since `previous` (the stack file as last applied): a node at the address and SSH
 * port of a previous node of another name. Every resource of a node is named after it, so a
 * rename replaces the node; the program refuses it in one `up` (components/guard/renames.ts).
 */
export function renameWarnings(previous: StackConfig, cfg: StackConfig): Problem[] {
    const endpoint = (c: StackConfig, n: StackConfig["nodes"][number]) => `${n.address}:${n.port ?? c.ssh.port}`;
    const names = new Set(cfg.nodes.map((n) => n.name));
    return cfg.nodes.flatMap((n, i) => {
        const before = previous.nodes.find((p) => endpoint(previous, p) === endpoint(cfg, n) && p.name !== n.name && !names.has(p.name));
        if (!before) return [];
        return [
            {
                path: `nodes[${i}].name`,
                message: `"${n.name}" is node "${before.name}" renamed (${endpoint(cfg, n)}): a rename replaces the node (its switch, subnet, chassis and management port are deleted and created anew) and \`up\` refuses it in one step; keep the name, or remove "${before.name}" in one up (drain it first) and add "${n.name}" in the next`,
            },
        ];
    });
}
