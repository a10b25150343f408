// npm run status -- stacks/Pulumi.<env>.yaml --ssh-key FILE [--json]
// Each central's NB and SB as their own servers report them: role (leader, follower), term,
// membership and raft connections for a clustered central, or standalone. Exit 0 when every
// database of every central answers and each clustered database has exactly one leader.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { readStackFile } from "../components/config/stackFile";
import { validateConfig } from "../components/config/validate";
import { buildClusterModel } from "../components/model/cluster";
import { centralStatus, formatCentralStatus, STATUS_DBS } from "../components/status/centralStatus";
import { closeSshPool } from "../components/ssh/pool";

async function main(argv: string[]): Promise<number> {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { "ssh-key": { type: "string" }, json: { type: "boolean", default: false } } });
    if (positionals.length !== 1 || !values["ssh-key"]) {
        console.error("usage: npm run status -- <path to Pulumi.<stack>.yaml> --ssh-key <private key file> [--json]");
        return 2;
    }
    const model = buildClusterModel(validateConfig(readStackFile(positionals[0])));
    try {
        const rows = await centralStatus(model, readFileSync(values["ssh-key"], "utf8"));
        console.log(values.json ? JSON.stringify(rows, null, 2) : formatCentralStatus(rows));
        const healthy =
            rows.every((r) => r.state !== "down") &&
            STATUS_DBS.every(([, db]) => {
                const members = rows.filter((r) => r.db === db && r.raft);
                return members.length === 0 || members.filter((r) => r.raft!.role === "leader").length === 1;
            });
        return healthy ? 0 : 1;
    } finally {
        closeSshPool();
    }
}

main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
        console.error(`status: ${(e as Error).message}`);
        process.exit(1);
    },
);
