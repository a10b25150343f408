// ScriptBundle: the gate of one host and its scripts. Its `check`, which the engine runs at every
// preview and up before the host's first step, refuses a host whose SSH key is not the pinned one
// (../ssh/hostKeyCheck). Its create installs this package's host script bundle (./scripts/bundle)
// once; every host command of that host depends on it and runs its bodies from there. Its state
// holds the host, the name of the stack config key of the SSH key (never the key), the bundle's
// digest (not the bundle: the provider reads the files from the installed package) and the
// fingerprint the host presented. A new digest replaces it, created
// first: the new bundle lands beside the old one, the host's commands are updated to call it,
// and the old bundle's delete, which the engine runs after every step of the up, removes the old
// directory. A host command depends on its host's bundle, so its delete runs before that removal.
import * as pulumi from "@pulumi/pulumi";
import { sshKeyOf } from "../dynamic/providerConfig";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";
import { SshError, SshHostKeyError } from "../ssh/errors";
import { exec } from "../ssh/exec";
import { checkHostKey, presentedKey, probeHostKey } from "../ssh/hostKeyCheck";
import type { SshTarget } from "../ssh/target";
import { bundleInstallCommand, bundleRemoveCommand, bundleStdin, scriptBundle } from "./scripts/bundle";

export interface ScriptBundleArgs {
    ssh: SshTarget;
    /** The stack config key (`<namespace>:<name>`) whose value is the SSH private key. */
    privateKeyConfig: string;
}

/** Install and remove are idempotent: a connection lost mid-run (a pooled one the host's network change cut) is tried again. */
const ATTEMPTS = 3;
const RETRY_MS = 1000;

async function run(inputs: any, command: string, stdin?: string): Promise<void> {
    let r: Awaited<ReturnType<typeof exec>>;
    for (let attempt = 1; ; attempt++) {
        try {
            r = await exec(inputs.ssh, sshKeyOf(inputs), command, { stdin });
            break;
        } catch (err) {
            if (!(err instanceof SshError) || err instanceof SshHostKeyError || attempt >= ATTEMPTS) throw err;
            await new Promise((done) => setTimeout(done, RETRY_MS));
        }
    }
    if (r.code !== 0) throw new Error(`script bundle ${String(inputs.digest).slice(0, 16)} on ${inputs.ssh.host}: exited ${r.code}: ${r.stderr.trim().split("\n").slice(-5).join("\n")}`);
}

/** Installs the bundle; the outputs: the inputs and the fingerprint the host presented (public information). */
async function install(inputs: any): Promise<Record<string, unknown>> {
    const bundle = scriptBundle();
    // The state asks for a bundle this package does not ship: only this package's can be installed.
    if (inputs.digest !== bundle.digest) throw new Error(`digest: this package ships script bundle ${bundle.digest}, not ${inputs.digest}`);
    await run(inputs, bundleInstallCommand(bundle.digest), bundleStdin(bundle));
    // The pooled login the install made: no second handshake.
    return { ...inputs, fingerprint: await presentedKey(inputs) };
}

export const scriptBundleProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds: any, news: any) {
        return { inputs: news, failures: await checkHostKey(news) };
    },
    async create(inputs: any) {
        return { id: `${inputs.ssh.host}:${inputs.ssh.port}/${inputs.digest.slice(0, 16)}`, outs: await install(inputs) };
    },
    async diff(_id: string, olds: any, news: any) {
        const replaces = olds.digest !== news.digest ? ["digest"] : [];
        const changes = replaces.length > 0 || JSON.stringify(olds.ssh) !== JSON.stringify(news.ssh) || olds.privateKeyConfig !== news.privateKeyConfig;
        return { changes, replaces };
    },
    // Another address, user or key: the same bundle, installed again if it is not there.
    async update(_id: string, _olds: any, news: any) {
        return { outs: await install(news) };
    },
    async delete(_id: string, props: any) {
        await run(props, bundleRemoveCommand(props.digest));
    },
    // Refresh: nothing else of the host logs in then, so the probe's key exchange is all it costs.
    async read(id: string, props: any) {
        return { id, props: { ...props, fingerprint: await probeHostKey(props.ssh) } };
    },
};

const provider = providerStub("hosts", "ScriptBundle", scriptBundleProvider);
export const SCRIPT_BUNDLE_TYPE = provider.resourceType;

export class ScriptBundle extends PackageResource {
    declare readonly digest: pulumi.Output<string>;
    /** The fingerprint of the key the host presented (public information). */
    declare readonly fingerprint: pulumi.Output<string>;

    constructor(name: string, args: ScriptBundleArgs, opts?: pulumi.CustomResourceOptions) {
        super(provider, name, { ...args, digest: scriptBundle().digest, fingerprint: undefined }, opts);
    }
}
