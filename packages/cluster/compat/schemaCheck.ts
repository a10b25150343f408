// OvnkubeSchemaCheck: refuses, at preview, a host whose OVN databases (a central, or an
// interconnect zone) are too old for the configured ovn-kubernetes release (README
// "Compatibility"). `check` runs at every preview and up, before any resource that depends on it
// is touched; it reads the versions on the host itself over SSH. Before the packages are installed
// there is nothing to read yet: then `create`, which runs after the host's packages and before its
// databases are configured, decides.
// State holds only the provider's stub (../dynamic/stub): the installed package runs this code.
import * as pulumi from "@pulumi/pulumi";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";
import { sshKeyOf, sshKeyProps, type SshKeyInput } from "../dynamic/providerConfig";
import type { SshTarget } from "../ssh/target";
import { exec } from "../ssh/exec";
import type { OvnkubeVersion } from "../kube/releases";
import { parseSchemas, READ_SCHEMAS_SCRIPT, schemaRefusal, type CentralSchemas } from "./ovnkubeSchema";

export type OvnkubeSchemaCheckArgs = {
    /** The databases' host (for messages) and how to reach it. */
    host: string;
    ssh: SshTarget;
    /** The ovn-kubernetes release the workloads run. */
    version: OvnkubeVersion;
} & SshKeyInput;

interface Inputs {
    host: string;
    ssh: SshTarget;
    privateKey?: string;
    privateKeyConfig?: string;
    version: OvnkubeVersion;
}

async function readSchemas(inputs: Inputs): Promise<CentralSchemas | undefined> {
    const r = await exec(inputs.ssh, sshKeyOf(inputs), READ_SCHEMAS_SCRIPT);
    return r.code === 0 ? parseSchemas(inputs.host, r.stdout) : undefined;
}

/** Outputs: what was found, so `pulumi stack output` and refresh show the host's schemas. */
async function verified(inputs: Inputs): Promise<Record<string, unknown>> {
    const found = await readSchemas(inputs);
    // By now the packages step has run: only what is installed or served decides.
    if (!found || found.source === "candidate") throw new Error(`${inputs.host} has no OVN databases or schema files to read: its packages step must install ovn-central first`);
    const refusal = schemaRefusal(inputs.version, found);
    if (refusal) throw new Error(refusal);
    return { ...inputs, nbSchema: found.nb, sbSchema: found.sb };
}

export const schemaCheckProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds: any, news: any) {
        let found: CentralSchemas | undefined;
        try {
            found = await readSchemas(news);
        } catch {
            // Unreachable now: the host's script bundle reports it; create decides once it is reachable.
            return { inputs: news };
        }
        const refusal = found && schemaRefusal(news.version, found);
        return refusal ? { inputs: news, failures: [{ property: "version", reason: refusal }] } : { inputs: news };
    },
    async create(inputs: any) {
        return { id: `${inputs.host}`, outs: await verified(inputs) };
    },
    async diff(_id: string, olds: any, news: any) {
        const keys = ["host", "version", "ssh"].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
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
    /** The host's OVN_Northbound and OVN_Southbound schema versions. */
    declare readonly nbSchema: pulumi.Output<string>;
    declare readonly sbSchema: pulumi.Output<string>;

    constructor(name: string, args: OvnkubeSchemaCheckArgs, opts?: pulumi.CustomResourceOptions) {
        const key = sshKeyProps(args);
        super(
            provider,
            name,
            { host: args.host, ssh: args.ssh, version: args.version, ...key.props, nbSchema: undefined, sbSchema: undefined },
            { ...opts, additionalSecretOutputs: key.secretOutputs },
        );
    }
}
