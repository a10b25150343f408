// Settings that are valid but unsafe outside a lab: validation passes, and validate and the
// program say so on every run, so an unsafe production stack never goes unnoticed.
import type { Problem } from "./semantic";
import type { StackConfig } from "./types";

export function configWarnings(cfg: StackConfig): Problem[] {
    const warnings: Problem[] = [];
    if (cfg.ssh.insecureIgnoreHostKey && !cfg.lab)
        warnings.push({
            path: "ssh.insecureIgnoreHostKey",
            message: "accepts any host key, so anyone on the path can pose as a host and receive its scripts and secrets; pin every nodes[].hostKey, or mark a throw-away stack with `lab: true`",
        });
    // Validation refuses a loopback central, so plain tcp always crosses a network.
    const central = cfg.nodes.find((n) => n.roles.includes("central"));
    if (cfg.ovnTransport.protocol === "tcp" && central)
        warnings.push({
            path: "ovnTransport.protocol",
            message: `tcp: the Northbound and Southbound databases listen unencrypted and unauthenticated on ${central.tunnelIp}; use ssl in production (ovnSslPrivateKey, ovnSslCertificate, ovnSslCaCertificate)`,
        });
    return warnings;
}
