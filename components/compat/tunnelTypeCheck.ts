// TunnelTypeCheck: refuses, at preview, an encapType that differs from the tunnels the running
// cluster's chassis registered (./tunnelType.ts says why). `check` runs at every preview and up,
// before the central and the chassis that depend on it are touched; it reads the Southbound on
// the central over SSH. A new cluster has no Encap rows yet: nothing to refuse.
// Provider methods run from Pulumi's serialized copy: npm modules are require()d inside the
// functions that use them, local helpers are captured as functions.
import * as pulumi from "@pulumi/pulumi";
import type { SshTarget } from "../ssh/target";
import { exec } from "../ssh/exec";
import { parseEncaps, READ_ENCAPS_SCRIPT, tunnelTypeRefusal } from "./tunnelType";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";

export interface TunnelTypeCheckArgs {
    /** How to reach the central, where the Southbound runs. */
    ssh: SshTarget;
    /** Kept a secret whatever is passed. */
    privateKey: pulumi.Input<string>;
    encapType: string;
    /** Each node's tunnel IP (ovn-encap-ip), by node name. */
    tunnelIps: Record<string, string>;
}

async function refusal(inputs: any): Promise<string | undefined> {
    const r = await exec(inputs.ssh, inputs.privateKey, READ_ENCAPS_SCRIPT);
    return r.code === 0 ? tunnelTypeRefusal(inputs.encapType, inputs.tunnelIps, parseEncaps(r.stdout)) : undefined;
}

async function verified(inputs: any): Promise<Record<string, unknown>> {
    const why = await refusal(inputs);
    if (why) throw new Error(why);
    return inputs;
}

export const tunnelTypeCheckProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds: any, news: any) {
        let why: string | undefined;
        try {
            why = await refusal(news);
        } catch {
            // Unreachable now: HostKeyCheck reports that host; create or update decides once it is reachable.
            return { inputs: news };
        }
        return why ? { inputs: news, failures: [{ property: "encapType", reason: why }] } : { inputs: news };
    },
    async create(inputs: any) {
        return { id: "tunnel-type", outs: await verified(inputs) };
    },
    async diff(_id: string, olds: any, news: any) {
        const keys = ["ssh", "encapType", "tunnelIps"].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
        return { changes: keys.length > 0 };
    },
    async update(_id: string, _olds: any, news: any) {
        return { outs: await verified(news) };
    },
};

const provider = providerStub("ovn-kubernetes", "TunnelTypeCheck", tunnelTypeCheckProvider);

export class TunnelTypeCheck extends PackageResource {
    constructor(name: string, args: TunnelTypeCheckArgs, opts?: pulumi.CustomResourceOptions) {
        super(provider, name, { ...args, privateKey: pulumi.secret(args.privateKey) }, { ...opts, additionalSecretOutputs: ["privateKey"] });
    }
}
