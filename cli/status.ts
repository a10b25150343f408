// npm run status -- stacks/Pulumi.<env>.yaml --ssh-key FILE [--svg] [--out DIR] [--json]
// Each central's NB and SB as their own servers report them: role (leader, follower), term,
// membership and raft connections for a clustered central, or standalone. --svg: also every
// Northbound database read for the planned topology, drawn with what differs from the plan in
// colour (DIR/topology-live.svg, default DIR rendered/<stack>). Exit 0 when every database of
// every central answers, each clustered database has exactly one leader and (with --svg) the
// topology is as planned; 1 otherwise; 2 on wrong arguments (docs/cli.md).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { readStackFile } from "@ovn-kubernetes-as-code/cluster/config";
import { validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { buildClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { centralStatus, formatCentralStatus, STATUS_DBS, type MemberDbStatus } from "@ovn-kubernetes-as-code/cluster/status";
import { topologyDifferences, type NbDifferences } from "@ovn-kubernetes-as-code/cluster/status";
import { mismatchLine } from "@ovn-kubernetes-as-code/cluster/nb";
import { closeSshPool } from "@ovn-kubernetes-as-code/cluster/ssh";
import { liveTopologySvg } from "./pictures";
import { EXIT, stackArgs, stackNameOf } from "./terminal/args";
import { withProgress } from "./terminal/progress";
import { paint } from "./terminal/style";

const USAGE = "usage: npm run status -- <path to Pulumi.<stack>.yaml> --ssh-key <private key file> [--svg] [--out DIR] [--json]";

function centralsHealthy(rows: MemberDbStatus[]): boolean {
    return (
        rows.every((r) => r.state !== "down") &&
        STATUS_DBS.every(([, db]) => {
            const members = rows.filter((r) => r.db === db && r.raft);
            return members.length === 0 || members.filter((r) => r.raft!.role === "leader").length === 1;
        })
    );
}

const asPlanned = (topology: NbDifferences[]) => topology.every((nb) => nb.error === undefined && nb.differences.length === 0);

function topologyLines(topology: NbDifferences[]): string[] {
    return topology.flatMap((nb) => {
        const head = `Northbound of ${nb.zone ? `zone ${nb.zone}` : nb.host}`;
        if (nb.error !== undefined) return [`${head}: ${paint(process.stdout, "red", "not read")}: ${nb.error}`];
        if (nb.differences.length === 0) return [`${head}: ${paint(process.stdout, "green", "as planned")}`];
        return [
            `${head}: ${paint(process.stdout, "yellow", `${nb.differences.length} difference(s)`)}`,
            ...nb.differences.map((m) => `  ${mismatchLine(m)}`),
        ];
    });
}

async function main(argv: string[]): Promise<number> {
    const args = stackArgs(
        argv,
        {
            "ssh-key": { type: "string" },
            svg: { type: "boolean", default: false },
            out: { type: "string" },
            json: { type: "boolean", default: false },
        },
        USAGE,
    );
    if (!args || !args.values["ssh-key"]) {
        if (args) console.error(USAGE);
        return EXIT.usage;
    }
    const { file, values } = args;
    const model = buildClusterModel(validateConfig(readStackFile(file)));
    const key = readFileSync(values["ssh-key"]!, "utf8");
    try {
        const rows = await withProgress("reading the centrals' databases", () => centralStatus(model, key));
        const topology = values.svg
            ? await withProgress("reading the Northbound topology", () => topologyDifferences(model, key))
            : undefined;
        let svg: string | undefined;
        if (topology) {
            const out = values.out ?? path.join("rendered", stackNameOf(file));
            mkdirSync(out, { recursive: true });
            svg = path.join(out, "topology-live.svg");
            writeFileSync(svg, await liveTopologySvg(model, stackNameOf(file), topology));
        }
        const healthy = centralsHealthy(rows) && (topology === undefined || asPlanned(topology));
        if (values.json) console.log(JSON.stringify({ file, healthy, centrals: rows, ...(topology ? { topology, svg } : {}) }, null, 2));
        else {
            if (rows.length > 0) console.log(formatCentralStatus(rows));
            if (topology) console.log([...topologyLines(topology), `the live topology: ${svg}`].join("\n"));
        }
        return healthy ? EXIT.ok : EXIT.failed;
    } finally {
        closeSshPool();
    }
}

main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
        console.error(`status: ${(e as Error).message}`);
        process.exit(EXIT.failed);
    },
);
