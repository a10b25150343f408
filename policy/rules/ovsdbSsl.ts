// NB/SB over SSL in production: no resource of a production stack may name an OVSDB connection
// or listener over plain TCP (`tcp:IP:PORT` for clients, `ptcp:PORT[:IP]` for listeners, raft
// included). Read from what the stack deploys (host scripts, ovn-config, NB connections), so it
// holds whichever writer and architecture; an interconnect zone's unix sockets never match.
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { inProduction, productionSettings, strings } from "./scope";

const PLAIN_TCP = /\b(?:tcp:\d{1,3}(?:\.\d{1,3}){3}:\d+|ptcp:\d+(?::\d{1,3}(?:\.\d{1,3}){3})?)/;

export const ovsdbOverSsl: ResourceValidationPolicy = {
    name: "ovsdb-over-ssl",
    description: "In production stacks the OVN Northbound and Southbound databases are reached and listen over SSL only.",
    enforcementLevel: "mandatory",
    configSchema: productionSettings,
    validateResource(args, reportViolation) {
        if (!inProduction(args)) return;
        for (const [path, text] of strings(args.props)) {
            const m = PLAIN_TCP.exec(text);
            if (m)
                reportViolation(
                    `${args.name}: ${path} uses ${m[0]}: set ovnTransport.protocol: ssl (with ovnSslPrivateKey, ovnSslCertificate, ovnSslCaCertificate) in a production stack`,
                );
        }
    },
};
