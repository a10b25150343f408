// OvnkubeSchemaCheck: refuses, at preview, a central whose OVN databases are too old for the
// configured ovnkube (README "Compatibility"). `check` runs at every preview and up, before any
// resource that depends on it is touched; it reads the versions on the central itself over SSH.
// Before the packages are installed there is nothing to read yet: then `create`, which runs after
// the central's packages and before the central is configured, decides.
// State holds only the provider's stub (../dynamic/stub): the installed package runs this code.
import * as pulumi from "@pulumi/pulumi";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";
import type { SshTarget } from "../ssh/target";
import { exec } from "../ssh/exec";
import { parseSchemas, READ_SCHEMAS_SCRIPT, schemaRefusal, type CentralSchemas } from "./ovnkubeSchema";

export interface OvnkubeSchemaCheckArgs {
    /** The central's name (for messages) and how to reach it. */
    host: string;
    ssh: SshTarget;
    /** Kept a secret whatever is passed. */
    privateKey: pulumi.Input<string>;
    /** The ovnkube image the workloads run. */
    image: string;
}

interface Inputs {
    host: string;
    ssh: SshTarget;
    privateKey: string;
    image: string;
}

async function readSchemas(inputs: Inputs): Promise<CentralSchemas | undefined> {
    const r = await exec(inputs.ssh, inputs.privateKey, READ_SCHEMAS_SCRIPT);
    return r.code === 0 ? parseSchemas(inputs.host, r.stdout) : undefined;
}

/** Outputs: what was found, so `pulumi stack output` and refresh show the central's schemas. */
async function verified(inputs: Inputs): Promise<Record<string, unknown>> {
    const found = await readSchemas(inputs);
    if (!found) throw new Error(`the central ${inputs.host} has no OVN databases or schema files to read: its packages step must install ovn-central first`);
    const refusal = schemaRefusal(inputs.image, found);
    if (refusal) throw new Error(refusal);
    return { ...inputs, nbSchema: found.nb, sbSchema: found.sb };
}

export const schemaCheckProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds: any, news: any) {
        let found: CentralSchemas | undefined;
        try {
            found = await readSchemas(news);
        } catch {
            // Unreachable now: HostKeyCheck reports that host; create decides once it is reachable.
            return { inputs: news };
        }
        const refusal = found && schemaRefusal(news.image, found);
        return refusal ? { inputs: news, failures: [{ property: "image", reason: refusal }] } : { inputs: news };
    },
    async create(inputs: any) {
        return { id: `${inputs.host}`, outs: await verified(inputs) };
    },
    async diff(_id: string, olds: any, news: any) {
        const keys = ["host", "image", "ssh"].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
        return { changes: keys.length > 0 };
    },
    async update(_id: string, _olds: any, news: any) {
        return { outs: await verified(news) };
    },
    async read(id: string, props: any) {
        const found = await readSchemas(props);
        return { id, props: found ? { ...props, nbSchema: found.nb, sbSchema: found.sb } : props };
    },
};

const MODULE = "ovn-kubernetes";
const TYPE = "OvnkubeSchemaCheck";
const provider = providerStub(MODULE, TYPE, schemaCheckProvider);

export class OvnkubeSchemaCheck extends PackageResource {
    /** The central's OVN_Northbound and OVN_Southbound schema versions. */
    declare readonly nbSchema: pulumi.Output<string>;
    declare readonly sbSchema: pulumi.Output<string>;

    constructor(name: string, args: OvnkubeSchemaCheckArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            provider,
            name,
            { ...args, privateKey: pulumi.secret(args.privateKey), nbSchema: undefined, sbSchema: undefined },
            { ...opts, additionalSecretOutputs: ["privateKey"] },
        );
    }
}
