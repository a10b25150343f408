// VtepBindings: the VLAN bindings of a VTEP's physical switch ports to logical switches, the
// rows `vtep-ctl bind-ls` writes in the VTEP database, with this resource as their one writer.
// Create and update make the bindings of the declared ports exactly the declared ones in one
// vtep-ctl transaction; read lists them, so that refresh reports a binding removed or changed by
// hand and the next up restores it; delete unbinds them. The physical switch, its ports and
// daemons are the VTEP's host command's (./vtep); this runs after it is created and before it is
// deleted. The SSH key is named by its stack config key, never carried.
import type * as pulumi from "@pulumi/pulumi";
import type { SshTarget } from "../model/sshTarget";
import type { VtepBindingModel } from "../model/types";
import { sshKeyOf } from "../dynamic/providerConfig";
import { PackageResource } from "../dynamic/resource";
import { providerStub } from "../dynamic/stub";
import { exec } from "../ssh/exec";
import { shellQuote } from "../ssh/shellQuote";
import { checked, checkedInt } from "../values";

export interface VtepBindingsArgs {
    ssh: SshTarget;
    /** The stack config key (`<namespace>:<name>`) whose value is the SSH private key. */
    privateKeyConfig: string;
    physicalSwitch: string;
    /** The physical switch's ports: whatever is bound on them is this resource's. */
    ports: string[];
    bindings: VtepBindingModel[];
}

const key = (b: Pick<VtepBindingModel, "port" | "vlan">) => `${b.port} ${b.vlan}`;
const sorted = (bindings: readonly VtepBindingModel[]) => [...bindings].sort((a, b) => key(a).localeCompare(key(b)));

/** The inputs' names and VLANs as the VTEP database takes them; throws naming the field. */
function checkedArgs(
    args: Pick<VtepBindingsArgs, "physicalSwitch" | "ports" | "bindings">,
): Pick<VtepBindingsArgs, "physicalSwitch" | "ports" | "bindings"> {
    const field = (k: string) => `vteps[${args.physicalSwitch}].${k}`;
    return {
        physicalSwitch: checked("vtep.physicalSwitch", args.physicalSwitch, "ifname"),
        ports: args.ports.map((p, i) => checked(field(`ports[${i}]`), p, "ifname")),
        bindings: args.bindings.map((b, i) => ({
            port: checked(field(`bindings[${i}].port`), b.port, "ifname"),
            vlan: Number(checkedInt(field(`bindings[${i}].vlan`), b.vlan, 0, 4094)),
            logicalSwitch: checked(field(`bindings[${i}].logicalSwitch`), b.logicalSwitch, "nodeName"),
        })),
    };
}

/** One `vtep-ctl list-bindings` per port, each after a line naming it. */
export function listBindingsCommand(physicalSwitch: string, ports: readonly string[]): string {
    return ports
        .map((p) => `echo ${shellQuote(`port ${p}`)} && vtep-ctl list-bindings ${shellQuote(physicalSwitch)} ${shellQuote(p)}`)
        .join(" && ");
}

/** Parses listBindingsCommand's output: vtep-ctl prints `VLAN LOGICAL-SWITCH` a line, the VLAN zero-padded. */
export function parseBindings(text: string): VtepBindingModel[] {
    const bindings: VtepBindingModel[] = [];
    let port: string | undefined;
    for (const line of text.split("\n").map((l) => l.trim())) {
        if (line === "") continue;
        const named = /^port (\S+)$/.exec(line);
        if (named) port = named[1];
        else {
            const bound = /^(\d+) (\S+)$/.exec(line);
            if (!bound || port === undefined) throw new Error(`unexpected vtep-ctl list-bindings line ${JSON.stringify(line)}`);
            bindings.push({ port, vlan: Number(bound[1]), logicalSwitch: bound[2] });
        }
    }
    return sorted(bindings);
}

/**
 * What turns `present` into `wanted`, or undefined when they are the same: one vtep-ctl
 * transaction that unbinds bindings to another switch or of no declared VLAN, adds the logical
 * switches of the missing ones and binds them; then a logical switch no binding joins any more is
 * deleted, unless ovn-controller-vtep still holds MACs of it (unbound, it carries nothing; the
 * VTEP database goes with destroy).
 */
export function convergeCommand(
    physicalSwitch: string,
    present: readonly VtepBindingModel[],
    wanted: readonly VtepBindingModel[],
): string | undefined {
    const same = (a: VtepBindingModel, b: VtepBindingModel) => key(a) === key(b) && a.logicalSwitch === b.logicalSwitch;
    const ps = shellQuote(physicalSwitch);
    const unbind = present.filter((p) => !wanted.some((w) => same(p, w)));
    const bind = wanted.filter((w) => !present.some((p) => same(p, w)));
    if (unbind.length + bind.length === 0) return undefined;
    const steps = [
        ...unbind.map((b) => `-- unbind-ls ${ps} ${shellQuote(b.port)} ${b.vlan}`),
        ...[...new Set(bind.map((b) => b.logicalSwitch))].map((ls) => `-- --may-exist add-ls ${shellQuote(ls)}`),
        ...bind.map((b) => `-- bind-ls ${ps} ${shellQuote(b.port)} ${b.vlan} ${shellQuote(b.logicalSwitch)}`),
    ];
    const unused = [...new Set(unbind.map((b) => b.logicalSwitch))].filter((ls) => !wanted.some((w) => w.logicalSwitch === ls));
    return [
        `vtep-ctl ${steps.join(" ")}`,
        ...unused.map((ls) => `{ vtep-ctl --if-exists del-ls ${shellQuote(ls)} 2>/dev/null || true; }`),
    ].join(" && ");
}

async function run(props: any, command: string, what: string): Promise<string> {
    const r = await exec(props.ssh, sshKeyOf(props), command);
    if (r.code !== 0) throw new Error(`VTEP ${props.physicalSwitch} on ${props.ssh.host}: ${what}: exited ${r.code}: ${r.stderr.trim()}`);
    return r.stdout;
}

async function present(props: any): Promise<VtepBindingModel[]> {
    const args = checkedArgs(props);
    return parseBindings(await run(props, listBindingsCommand(args.physicalSwitch, args.ports), "listing the bindings"));
}

/** Makes the bindings the declared ones; the outputs are the inputs, bindings in a stable order. */
async function converge(inputs: any): Promise<Record<string, unknown>> {
    const args = checkedArgs(inputs);
    const wanted = sorted(args.bindings);
    const command = convergeCommand(args.physicalSwitch, await present(inputs), wanted);
    if (command !== undefined) await run(inputs, command, "binding");
    return { ...inputs, bindings: wanted };
}

export const vtepBindingsProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds: any, news: any) {
        checkedArgs(news);
        return { inputs: news };
    },
    async create(inputs: any) {
        return { id: `${inputs.ssh.host}/${inputs.physicalSwitch}`, outs: await converge(inputs) };
    },
    async diff(_id: string, olds: any, news: any) {
        const replaces = ["physicalSwitch", "ssh"].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
        const changes =
            replaces.length > 0 ||
            JSON.stringify(sorted(olds.bindings ?? [])) !== JSON.stringify(sorted(news.bindings ?? [])) ||
            ["ports", "privateKeyConfig"].some((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
        return { changes, replaces, deleteBeforeReplace: true };
    },
    async update(_id: string, _olds: any, news: any) {
        return { outs: await converge(news) };
    },
    /** What the VTEP database holds on the declared ports: a binding removed or changed by hand shows as a difference. */
    async read(id: string, props: any) {
        return { id, props: { ...props, bindings: await present(props) } };
    },
    /** Unbinds what the declared ports hold; a physical switch already gone holds nothing. */
    async delete(_id: string, props: any) {
        const { physicalSwitch } = checkedArgs(props);
        if (!(await run(props, "vtep-ctl list-ps", "listing the physical switches")).split("\n").includes(physicalSwitch)) return;
        const command = convergeCommand(physicalSwitch, await present(props), []);
        if (command !== undefined) await run(props, command, "unbinding");
    },
};

const provider = providerStub("hosts", "VtepBindings", vtepBindingsProvider);

export class VtepBindings extends PackageResource {
    declare readonly bindings: pulumi.Output<VtepBindingModel[]>;

    constructor(name: string, args: VtepBindingsArgs, opts?: pulumi.CustomResourceOptions) {
        super(provider, name, { ...args }, opts);
    }
}
