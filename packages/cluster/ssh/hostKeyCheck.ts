// HostKeyCheck: a gate in front of every host. Every remote.Command verifies the pinned key itself
// when it connects (`connection.hostKey`), but commands connect only while `up` carries them out,
// one host after another: a wrong key would surface halfway through an up, after other hosts were
// changed, and never in a preview. This resource's provider checks the presented key against the
// pin at every preview and update (`check` runs each time) and refuses on a mismatch before any
// command is sent to any host. With the key's config entry named, it logs in through the process's
// connection pool (./pool), which checks the key before authenticating: the host's other checks
// then run on that same connection instead of a handshake of their own. Without it, or when the
// login fails for another reason than the key, a probe stops after the key exchange: no
// credentials are needed to see the key.
// State holds only the provider's stub (../dynamic/stub): the installed package runs this code.
import * as pulumi from "@pulumi/pulumi";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";
import { sshKeyOf } from "../dynamic/providerConfig";
import type { SshTarget } from "./target";
import { SshHostKeyError } from "./errors";
import { acquireSsh } from "./pool";
import { hostKeyAlgorithms, hostKeyRefusal, isFingerprintPin, parseHostKeyLine, sshFingerprint } from "./hostKey";

export interface HostKeyCheckArgs {
    ssh: SshTarget;
    /** The stack config key (`<namespace>:<name>`) of the SSH private key: the check then logs in through the pool. */
    privateKeyConfig?: string;
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

/** The fingerprint the host presents: the pooled login's when the key is named and it logs in, else a probe's. */
async function presentedKey(inputs: any): Promise<string> {
    if (inputs.privateKeyConfig !== undefined) {
        try {
            const held = await acquireSsh(inputs.ssh, sshKeyOf(inputs));
            held.release();
            return held.presented;
        } catch (e) {
            if (e instanceof SshHostKeyError) return e.presented;
            // Not the key (a login refused, a key not configured): the probe tells the key apart.
        }
    }
    return probeHostKey(inputs.ssh);
}

export const hostKeyProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds: any, news: any) {
        const ssh = news.ssh as SshTarget;
        try {
            const refusal = hostKeyRefusal(ssh, await presentedKey(news));
            return refusal ? { inputs: news, failures: [{ property: "ssh", reason: refusal }] } : { inputs: news };
        } catch (e) {
            return { inputs: news, failures: [{ property: "ssh", reason: (e as Error).message }] };
        }
    },
    async create(inputs: any) {
        const fingerprint = await presentedKey(inputs);
        return { id: `${inputs.ssh.host}:${inputs.ssh.port}`, outs: { ...inputs, fingerprint } };
    },
    async diff(_id: string, olds: any, news: any) {
        const changed = JSON.stringify(olds.ssh) !== JSON.stringify(news.ssh);
        return { changes: changed, replaces: changed ? ["ssh"] : [] };
    },
    async read(id: string, props: any) {
        // Refresh: nothing else of the host logs in, so the probe's key exchange is all it costs.
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
