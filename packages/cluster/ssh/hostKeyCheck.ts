// HostKeyCheck: a gate in front of every host. Every remote.Command verifies the pinned key itself
// when it connects (`connection.hostKey`), but commands connect only while `up` carries them out,
// one host after another: a wrong key would surface halfway through an up, after other hosts were
// changed, and never in a preview. This resource's provider checks the presented key against the
// pin at every preview and update (`check` runs each time) and refuses on a mismatch before any
// command is sent to any host. The probe stops after the key exchange: no credentials are needed.
// State holds only the provider's stub (../dynamic/stub): the installed package runs this code.
import * as pulumi from "@pulumi/pulumi";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";
import type { SshTarget } from "./target";
import { hostKeyAlgorithms, hostKeyRefusal, isFingerprintPin, parseHostKeyLine, sshFingerprint } from "./hostKey";

export interface HostKeyCheckArgs {
    ssh: SshTarget;
}

/**
 * Connects just far enough to see the host key and returns its SHA256 fingerprint. With a key line
 * pinned, only that key type is offered, as the command provider does: a host holding several keys
 * then presents the pinned one.
 */
export function probeHostKey(target: SshTarget, timeoutMs = 15000): Promise<string> {
    const { Client } = require("ssh2") as typeof import("ssh2");
    const pin = target.hostKey && !isFingerprintPin(target.hostKey) ? target.hostKey : undefined;
    const serverHostKey = pin ? hostKeyAlgorithms(parseHostKeyLine(pin).type) : undefined;
    return new Promise((resolve, reject) => {
        const client = new Client();
        let seen: string | undefined;
        const done = () => {
            client.end();
            if (seen !== undefined) resolve(seen);
            else reject(new Error(`no SSH host key received from ${target.host}:${target.port}`));
        };
        client.on("error", (e: Error) => (seen !== undefined ? done() : reject(new Error(`SSH to ${target.host}:${target.port}: ${e.message}`))));
        client.on("close", done);
        client.connect({
            host: target.host,
            port: target.port,
            username: target.user,
            readyTimeout: timeoutMs,
            ...(serverHostKey ? { algorithms: { serverHostKey: serverHostKey as never } } : {}),
            // Refusing here ends the handshake right after the key exchange.
            hostVerifier: (key: Buffer) => {
                seen = sshFingerprint(key);
                return false;
            },
        });
    });
}

export const hostKeyProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds: any, news: any) {
        const ssh = news.ssh as SshTarget;
        try {
            const refusal = hostKeyRefusal(ssh, await probeHostKey(ssh));
            return refusal ? { inputs: news, failures: [{ property: "ssh", reason: refusal }] } : { inputs: news };
        } catch (e) {
            return { inputs: news, failures: [{ property: "ssh", reason: (e as Error).message }] };
        }
    },
    async create(inputs: any) {
        const fingerprint = await probeHostKey(inputs.ssh);
        return { id: `${inputs.ssh.host}:${inputs.ssh.port}`, outs: { ...inputs, fingerprint } };
    },
    async diff(_id: string, olds: any, news: any) {
        const changed = JSON.stringify(olds.ssh) !== JSON.stringify(news.ssh);
        return { changes: changed, replaces: changed ? ["ssh"] : [] };
    },
    async read(id: string, props: any) {
        return { id, props: { ...props, fingerprint: await probeHostKey(props.ssh) } };
    },
};

const MODULE = "ssh";
const TYPE = "HostKeyCheck";
const provider = providerStub(MODULE, TYPE, hostKeyProvider);
export const HOST_KEY_CHECK_TYPE = provider.resourceType;

export class HostKeyCheck extends PackageResource {
    /** The fingerprint the host presented (public information). */
    declare readonly fingerprint: pulumi.Output<string>;

    constructor(name: string, args: HostKeyCheckArgs, opts?: pulumi.CustomResourceOptions) {
        super(provider, name, { ...args, fingerprint: undefined }, opts);
    }
}
