// One host command built by the project's own hostCommand, as every host component builds its
// commands. Stack config (a test rewrites it as an operator edits a stack):
//   dir         directory on the "host" (a real sshd on loopback) holding its state
//   host, port, user, privateKey (secret), hostKey   the connection, as components/program/connections.ts builds it
//   generation  the command's trigger: a new value replaces the command
// create records `create-<generation>` in ops.log and writes the generation to `state`; delete
// records `delete-<generation>` and removes `state`: what an old delete would tear down.
import * as pulumi from "@pulumi/pulumi";
import { hostCommand } from "../../../components/hosts/command";
import { shellQuote } from "../../../components/hosts/scripts/shell";

const config = new pulumi.Config();
const dir = shellQuote(config.require("dir"));
const generation = config.require("generation");
const gen = shellQuote(generation);

class Host extends pulumi.ComponentResource {
    constructor(name: string) {
        super("fixture:index:Host", name, {});
    }
}
const host = new Host("host");
const command = hostCommand(
    host,
    "host-state",
    {
        create: `echo create-${gen} >> ${dir}/ops.log; echo ${gen} > ${dir}/state; echo made ${gen}`,
        delete: `echo delete-${gen} >> ${dir}/ops.log; rm -f ${dir}/state`,
    },
    {
        connection: {
            host: config.require("host"),
            port: config.requireNumber("port"),
            user: config.require("user"),
            privateKey: config.requireSecret("privateKey"),
            hostKey: config.require("hostKey"),
        },
        triggers: [generation],
    },
);

export const stdout = command.stdout;
