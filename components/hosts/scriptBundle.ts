// ScriptBundle: the gate of one host, its distribution packages and its scripts. Its `check`,
// which the engine runs at every preview and up before the host's first step, refuses a host whose
// SSH key is not the pinned one (../ssh/hostKeyCheck), on a chassis an overlay MTU its tunnel
// device cannot carry (../compat/tunnelMtuCheck), a NIC about to move onto an OVS bridge that the
// distribution still configures (./nicHandoverCheck), a host that is not what the stack says
// (./hostFacts: distribution family, repository file, shared gateway address), on a host that
// serves ovnkube's databases an OVN too old for the release (../compat/schemaCheck), with OVN from
// the image a Kubernetes node whose Open vSwitch is too old for that OVN (../compat/imageOvsCheck), and with
// user-defined networks on a Kubernetes node that cannot run ovnkube-node with them (../compat/udnHostCheck); its create and update ask
// again before anything is installed, and once more of the schemas after the package step.
// Its create installs this package's host script bundle (./scripts/bundle) once, then runs the
// host's package step from it (./scripts/packagesScript: what is missing or at another version
// than the pinned one); every host command of that host depends on it and runs its bodies from
// there. The package step has no undo (removing Open vSwitch could cut the host off its own
// network), so it needs no resource of its own: another pin or repository is an update that runs
// it again. Its state holds the host, the name of the stack config key of the SSH key (never the
// key), the tunnel's plan, the NICs it moves, the package step, the ovnkube release its databases
// must serve, the bundle's digest (not the bundle: the provider reads the files from the installed
// package) and the fingerprint the host presented. A new digest replaces it, created first: the
// new bundle lands beside the old one, the host's commands are updated to call it, and the old
// bundle's delete, which the engine runs after every step of the up, removes the old directory. A
// host command depends on its host's bundle, so its delete runs before that removal.
import * as pulumi from "@pulumi/pulumi";
import { sshKeyOf } from "../dynamic/providerConfig";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";
import { SshError, SshHostKeyError } from "../ssh/errors";
import { exec } from "../ssh/exec";
import { checkHostKey, presentedKey, probeHostKey } from "../ssh/hostKeyCheck";
import type { SshTarget } from "../model/sshTarget";
import type { TunnelMtuPlan } from "../compat/tunnelMtu";
import { tunnelMtuRefusalOn } from "../compat/tunnelMtuCheck";
import { schemaRefusalOn, verifySchemasOn, type OvnkubeDatabases } from "../compat/schemaCheck";
import { udnHostRefusalOn } from "../compat/udnHostCheck";
import { imageOvsRefusalOn, verifyImageOvsOn } from "../compat/imageOvsCheck";
import type { ImageOvsPlan } from "../compat/imageOvs";
import type { UdnHostPlan } from "../compat/udnHost";
import { nicHandoverRefusal } from "./nicHandoverCheck";
import { hostFactsRefusal } from "./hostFactsCheck";
import type { HostFactsPlan } from "./hostFacts";
import type { NicBridge } from "./scripts/nicMoveScript";
import { bundleInstallCommand, bundleRemoveCommand, bundleStdin, scriptBundle } from "./scripts/bundle";

export interface ScriptBundleArgs {
    ssh: SshTarget;
    /** The stack config key (`<namespace>:<name>`) whose value is the SSH private key. */
    privateKeyConfig: string;
    /** A chassis host's tunnel: the overlay MTU must fit the device carrying its address. */
    tunnel?: TunnelMtuPlan;
    /** The NICs the host moves onto OVS bridges (./nicMove, nicMovesOf). */
    nics?: NicBridge[];
    /** The host's package step, a command of the bundle (./scripts/packagesScript); none when the hosts bring their own packages. */
    packages?: string;
    /** ovnkube mode, on the host that serves ovnkube's databases: the release their schemas must serve. */
    ovnkubeDatabases?: OvnkubeDatabases;
    /** What the stack says the host is (./hostFacts): its distribution family, repository, shared gateway's address. */
    hostFacts?: HostFactsPlan;
    /** A Kubernetes node whose ovnkube-node runs with network segmentation: systemd and VRF. */
    udnHost?: UdnHostPlan;
    /** A Kubernetes node with OVN from the image: the Open vSwitch that OVN needs. */
    imageOvs?: ImageOvsPlan;
}

/**
 * Reads, install and remove are idempotent: a connection lost mid-run (a pooled one the host's
 * network change cut) is tried again; a wrong host key is not.
 */
const ATTEMPTS = 3;
const RETRY_MS = 1000;

async function retried<T>(f: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
        try {
            return await f();
        } catch (err) {
            if (!(err instanceof SshError) || err instanceof SshHostKeyError || attempt >= ATTEMPTS) throw err;
            await new Promise((done) => setTimeout(done, RETRY_MS));
        }
    }
}

/**
 * Runs `command` on the host, tried again on a lost connection unless `once`; a non-zero exit fails
 * naming `what` (by default the bundle) and the host, with the last lines of its stderr.
 */
async function run(inputs: any, command: string, options: { stdin?: string; what?: string; once?: boolean } = {}): Promise<void> {
    const attempt = () => exec(inputs.ssh, sshKeyOf(inputs), command, { stdin: options.stdin });
    const r = await (options.once ? attempt() : retried(attempt));
    const what = options.what ?? `script bundle ${String(inputs.digest).slice(0, 16)}`;
    if (r.code !== 0)
        throw new Error(`${what} on ${inputs.ssh.host}: exited ${r.code}: ${r.stderr.trim().split("\n").slice(-5).join("\n")}`);
}

/** The host's reads beyond its key, each the input it judges and why it refuses (undefined: it does not). */
function hostReads(inputs: any): Array<{ property: string; read: () => Promise<string | undefined> }> {
    const key = () => sshKeyOf(inputs);
    return [
        ...(inputs.tunnel === undefined ? [] : [{ property: "tunnel", read: () => tunnelMtuRefusalOn(inputs.ssh, key(), inputs.tunnel) }]),
        ...((inputs.nics ?? []) as NicBridge[]).map((nic) => ({
            property: "nics",
            read: () => nicHandoverRefusal(inputs.ssh, key(), nic),
        })),
        ...(inputs.ovnkubeDatabases === undefined
            ? []
            : [{ property: "ovnkubeDatabases", read: () => schemaRefusalOn(inputs.ssh, key(), inputs.ovnkubeDatabases) }]),
        ...(inputs.hostFacts === undefined
            ? []
            : [{ property: "hostFacts", read: () => hostFactsRefusal(inputs.ssh, key(), inputs.hostFacts) }]),
        ...(inputs.udnHost === undefined ? [] : [{ property: "udnHost", read: () => udnHostRefusalOn(inputs.ssh, key(), inputs.udnHost) }]),
        ...(inputs.imageOvs === undefined
            ? []
            : [{ property: "imageOvs", read: () => imageOvsRefusalOn(inputs.ssh, key(), inputs.imageOvs) }]),
    ];
}

/** Why the host must not be touched, by input: its key, then what the host reads say. */
async function refusals(inputs: any): Promise<pulumi.dynamic.CheckFailure[]> {
    const key = await checkHostKey(inputs);
    if (key.length > 0) return key;
    const found = await Promise.all(
        hostReads(inputs).map(async ({ property, read }) => {
            try {
                const reason = await read();
                return reason === undefined ? [] : [{ property, reason }];
            } catch {
                // Not readable now (no key configured yet, a login refused): create and update ask again.
                return [];
            }
        }),
    );
    return found.flat();
}

/**
 * Installs the bundle, then the packages, once every host read passes, and checks the schemas the
 * packages brought; the outputs: the inputs and the fingerprint the host presented (public
 * information). `created`: a failed package step or schema check removes the bundle again, which
 * no resource then records.
 */
async function install(inputs: any, created: boolean): Promise<Record<string, unknown>> {
    const bundle = scriptBundle();
    // The state asks for a bundle this package does not ship: only this package's can be installed.
    if (inputs.digest !== bundle.digest) throw new Error(`digest: this package ships script bundle ${bundle.digest}, not ${inputs.digest}`);
    for (const { read } of hostReads(inputs)) {
        const why = await retried(read);
        if (why) throw new Error(why);
    }
    await run(inputs, bundleInstallCommand(bundle.digest), { stdin: bundleStdin(bundle) });
    try {
        // Once: an install cut off mid-way may still hold the package manager's lock; the next up runs it again.
        if (inputs.packages !== undefined) await run(inputs, inputs.packages, { what: "packages", once: true });
        if (inputs.ovnkubeDatabases !== undefined) await verifySchemasOn(inputs.ssh, sshKeyOf(inputs), inputs.ovnkubeDatabases);
        if (inputs.imageOvs !== undefined) await verifyImageOvsOn(inputs.ssh, sshKeyOf(inputs), inputs.imageOvs);
    } catch (err) {
        if (created) await run(inputs, bundleRemoveCommand(bundle.digest)).catch(() => undefined);
        throw err;
    }
    // The pooled login the install made: no second handshake.
    return { ...inputs, fingerprint: await presentedKey(inputs) };
}

export const scriptBundleProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds: any, news: any) {
        return { inputs: news, failures: await refusals(news) };
    },
    async create(inputs: any) {
        return { id: `${inputs.ssh.host}:${inputs.ssh.port}/${inputs.digest.slice(0, 16)}`, outs: await install(inputs, true) };
    },
    async diff(_id: string, olds: any, news: any) {
        const replaces = olds.digest !== news.digest ? ["digest"] : [];
        const changes =
            replaces.length > 0 ||
            ["ssh", "privateKeyConfig", "tunnel", "nics", "packages", "ovnkubeDatabases", "hostFacts", "udnHost", "imageOvs"].some(
                (k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]),
            );
        return { changes, replaces };
    },
    // Another address, user, key, tunnel plan, NIC, package pin or ovnkube release: the host read again, the same bundle installed again if it is not there, the package step run again.
    async update(_id: string, _olds: any, news: any) {
        return { outs: await install(news, false) };
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
