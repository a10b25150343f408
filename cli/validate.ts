// npm run validate -- stacks/Pulumi.<env>.yaml [--previous <the stack file as last applied>] [--json]
// Validates a stack file offline (no Pulumi CLI, no credentials): exit 0 with a summary line (and a
// warning line on stderr for each valid but unsafe setting, and with --previous for each node
// renamed since), or exit 1 with one line per problem; exit 2 on wrong arguments (docs/cli.md).
// --json: one JSON document on stdout instead, {file, valid, summary, warnings} or {file, valid, problems}.
import type { Problem } from "@ovn-kubernetes-as-code/cluster/config";
import { readStackFile } from "@ovn-kubernetes-as-code/cluster/config";
import { ConfigError, validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { configWarnings, renameWarnings } from "@ovn-kubernetes-as-code/cluster/config";
import { buildClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { EXIT, stackArgs } from "./terminal/args";
import { paint } from "./terminal/style";

const USAGE = "usage: npm run validate -- <path to Pulumi.<stack>.yaml> [--previous <the stack file as last applied>] [--json]";

type Outcome = { valid: true; summary: Record<string, unknown>; text: string; warnings: Problem[] } | { valid: false; problems: Problem[] };

function check(file: string, previousFile: string | undefined): Outcome {
    let raw: Record<string, unknown>;
    try {
        raw = readStackFile(file);
    } catch (e) {
        // Values the Pulumi CLI would read otherwise are named at their paths; unreadable or not YAML: the file itself is the problem.
        if (e instanceof ConfigError) return { valid: false, problems: e.problems };
        return { valid: false, problems: [{ path: "(file)", message: (e as Error).message }] };
    }
    try {
        const config = validateConfig(raw);
        const model = buildClusterModel(config);
        const previous = previousFile === undefined ? undefined : validateConfig(readStackFile(previousFile));
        const warnings = [
            ...configWarnings(config),
            ...(previous ? renameWarnings(previous, config) : []),
            ...model.plan.displaced.map((d) => ({
                path: `nodes "${d.node}"`,
                message: `${d.kind} ${d.wanted} is taken by "${d.by}", got ${d.got}; pin it to keep it if "${d.by}" is removed`,
            })),
        ];
        const gw = model.gateways.length;
        const interconnect = model.architecture === "interconnect";
        const summary = {
            hosts: model.hosts.length,
            nodeSwitches: model.nodeNetworks.length,
            gateways: gw,
            clusterSubnet: model.clusterSubnets[0],
            writer: model.writer,
            architecture: model.architecture,
            ...(interconnect ? { ovnkubeVersion: model.kube.version } : { nbAddress: model.nbAddress }),
        };
        const text =
            `${file}: valid: ${model.hosts.length} hosts, ${model.nodeNetworks.length} node switches, ${gw} gateway${gw === 1 ? "" : "s"}, ` +
            `cluster ${model.clusterSubnets[0]}, ${interconnect ? `a zone per node (ovn-kubernetes ${model.kube.version})` : `NB ${model.nbAddress}`}`;
        return { valid: true, summary, text, warnings };
    } catch (e) {
        if (e instanceof ConfigError) return { valid: false, problems: e.problems };
        throw e;
    }
}

function main(argv: string[]): number {
    const args = stackArgs(argv, { previous: { type: "string" }, json: { type: "boolean", default: false } }, USAGE);
    if (!args) return EXIT.usage;
    const file = args.file;
    const outcome = check(file, args.values.previous);
    if (args.values.json) {
        const { text: _text, ...rest } = outcome as Outcome & { text?: string };
        console.log(JSON.stringify({ file, ...rest }, null, 2));
        return outcome.valid ? EXIT.ok : EXIT.failed;
    }
    if (!outcome.valid) {
        for (const p of outcome.problems) console.error(`${file}: ${paint(process.stderr, "red", p.path)}: ${p.message}`);
        return EXIT.failed;
    }
    for (const w of outcome.warnings) console.error(`${file}: ${paint(process.stderr, "yellow", "warning")}: ${w.path}: ${w.message}`);
    console.log(outcome.text.replace(": valid:", `: ${paint(process.stdout, "green", "valid")}:`));
    return EXIT.ok;
}

process.exitCode = main(process.argv.slice(2));
