// The demo's explore lines, run as a user types them (through a shell, from the project's
// directory), against a running cluster: each must succeed and show that host's databases.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as path from "node:path";
import type { ClusterModel } from "../../../components/model/types";
import { exploreCommands } from "../../../lab/localcluster/explore";
import { PROJECT_ROOT } from "../../../lab/localcluster/names";

/**
 * What `show` prints of a database that holds a topology: NB switches and routers, SB chassis;
 * with OVN from the image, ovsdb-client's dumps of the same (by the database dumped).
 */
const SHOWN: Record<string, RegExp[]> = {
    "ovn-nbctl": [/^switch /m, /^router /m],
    "ovn-sbctl": [/^Chassis /m],
    OVN_Northbound: [/^Logical_Switch table$/m, /^"?transit_switch"?$/m],
    OVN_Southbound: [/^Chassis table$/m],
};

function shell(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
    // npm of the Node.js that runs the tests, as scripts/node.sh puts it first on PATH.
    const env = { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` };
    return new Promise((resolve) => {
        execFile("sh", ["-c", line], { cwd: PROJECT_ROOT, env, encoding: "utf8", timeout: 60_000 }, (err, stdout, stderr) =>
            resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
        );
    });
}

/** Runs every explore line of cluster `id` and returns the lines run. */
export async function assertExploreCommandsWork(id: string, model: ClusterModel): Promise<string[]> {
    const commands = exploreCommands(id, model);
    assert.ok(commands.length > 0, "no explore command for this model");
    for (const c of commands) {
        const r = await shell(c.line);
        assert.equal(r.code, 0, `${c.line}: ${r.stderr}`);
        for (const shown of SHOWN[c.argv[0]] ?? SHOWN[c.argv[3]]) assert.match(r.stdout, shown, `${c.line} printed:\n${r.stdout}`);
    }
    return commands.map((c) => c.line);
}
