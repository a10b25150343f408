// The ovnkube schema check of a host that serves ovnkube's databases (a central, or an interconnect
// zone), which its script bundle (../hosts/scriptBundle) runs: a host whose OVN databases are too
// old for the configured ovn-kubernetes release (README "Compatibility") is refused at every
// preview and up, before any command reaches it, by what it serves, has installed or would
// install (./ovnkubeSchema); once the bundle's package step has run, by what it serves or has
// installed only.
import type { SshTarget } from "../model/sshTarget";
import { exec } from "../ssh/exec";
import { retireProvider } from "../dynamic/registry";
import type { OvnkubeVersion } from "../config/releases";
import { parseSchemas, READ_SCHEMAS_SCRIPT, schemaRefusal, type CentralSchemas } from "./ovnkubeSchema";

/** The host that serves ovnkube's databases, named as messages name it, and the release they must be new enough for. */
export interface OvnkubeDatabases {
    node: string;
    version: OvnkubeVersion;
}

async function readSchemas(ssh: SshTarget, privateKey: string, node: string): Promise<CentralSchemas | undefined> {
    const r = await exec(ssh, privateKey, READ_SCHEMAS_SCRIPT);
    return r.code === 0 ? parseSchemas(node, r.stdout) : undefined;
}

/** Why the host's databases cannot serve the release, or undefined (also when nothing is known yet); throws when the host cannot be read. */
export async function schemaRefusalOn(ssh: SshTarget, privateKey: string, databases: OvnkubeDatabases): Promise<string | undefined> {
    const found = await readSchemas(ssh, privateKey, databases.node);
    return found && schemaRefusal(databases.version, found);
}

/** After the package step: the schemas served or installed, refused when too old or missing. */
export async function verifySchemasOn(ssh: SshTarget, privateKey: string, databases: OvnkubeDatabases): Promise<void> {
    const found = await readSchemas(ssh, privateKey, databases.node);
    if (!found || found.source === "candidate")
        throw new Error(`${databases.node} has no OVN databases or schema files to read: its package step must install ovn-central first`);
    const refusal = schemaRefusal(databases.version, found);
    if (refusal) throw new Error(refusal);
}

retireProvider("ovn-kubernetes:OvnkubeSchemaCheck", "the script bundle of each host that serves ovnkube's databases checks their schemas");
