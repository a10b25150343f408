// npm run validate -- stacks/Pulumi.<env>.yaml [--previous <the stack file as last applied>]
// Validates a stack file offline (no Pulumi CLI, no credentials): exit 0 with a summary line (and a
// warning line on stderr for each valid but unsafe setting, and with --previous for each node
// renamed since), or exit 1 with one line per problem.
import { readStackFile } from "../components/config/stackFile";
import { ConfigError, validateConfig } from "../components/config/validate";
import { configWarnings, renameWarnings } from "../components/config/warnings";
import { buildClusterModel } from "../components/model/cluster";

function main(argv: string[]): number {
    const at = argv.indexOf("--previous");
    const previousPath = at >= 0 ? argv[at + 1] : undefined;
    const rest = at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + 2)] : argv;
    const path = rest[0];
    if (!path || rest.length > 1 || (at >= 0 && !previousPath)) {
        console.error("usage: npm run validate -- <path to Pulumi.<stack>.yaml> [--previous <the stack file as last applied>]");
        return 2;
    }
    let raw: Record<string, unknown>;
    try {
        raw = readStackFile(path);
    } catch (e) {
        console.error(`${path}: ${(e as Error).message}`);
        return 1;
    }
    try {
        const config = validateConfig(raw);
        const model = buildClusterModel(config);
        const previous = previousPath === undefined ? undefined : validateConfig(readStackFile(previousPath));
        for (const w of [...configWarnings(config), ...(previous ? renameWarnings(previous, config) : [])]) console.error(`${path}: warning: ${w.path}: ${w.message}`);
        for (const d of model.plan.displaced)
            console.error(`warning: nodes "${d.node}": ${d.kind} ${d.wanted} is taken by "${d.by}", got ${d.got}; pin it to keep it if "${d.by}" is removed`);
        const gw = model.gateways.length;
        console.log(
            `${path}: valid: ${model.hosts.length} hosts, ${model.nodeNetworks.length} node switches, ${gw} gateway${gw === 1 ? "" : "s"}, ` +
                `cluster ${model.clusterSubnet}, ${model.architecture === "interconnect" ? `a zone per node (ovn-kubernetes ${model.kube.version})` : `NB ${model.nbAddress}`}`,
        );
        return 0;
    } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        for (const p of e.problems) console.error(`${path}: ${p.path}: ${p.message}`);
        return 1;
    }
}

process.exitCode = main(process.argv.slice(2));
