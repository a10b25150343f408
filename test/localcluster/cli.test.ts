// The command line as a user runs it: up writes a stack file, status and down report and exit
// with codes scripts can use; exec runs a command inside a host.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, test } from "node:test";
import YAML from "yaml";
import { down } from "../../lab/localcluster";
import { PROJECT_ROOT } from "../../lab/localcluster/names";
import { leftovers } from "./leftovers";

const ID = "lccli";

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
        execFile(
            process.execPath,
            ["--import", "tsx", "lab/localcluster/cli.ts", ...args],
            { cwd: PROJECT_ROOT, encoding: "utf8", timeout: 60_000 },
            (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
        );
    });
}

after(async () => {
    await down(ID);
});

test("up, status and down from the command line", async () => {
    await down(ID);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lc-cli-"));
    const stack = path.join(dir, "Pulumi.local.yaml");

    const upRun = await cli("up", "2", "--id", ID, "--subnet", "172.31.250.0/24", "--stack-file", stack);
    assert.equal(upRun.code, 0, upRun.stderr);
    assert.match(upRun.stdout, /node1\s+172\.31\.250\.11\s+debian12\s+\d+\s+\d+\s+ok/);
    assert.match(upRun.stdout, /node2\s+172\.31\.250\.12\s+debian12\s+\d+\s+\d+\s+ok/);
    const nodes = YAML.parse(fs.readFileSync(stack, "utf8")).config["ovn-kubernetes:nodes"];
    assert.deepEqual(
        nodes.map((n: { address: string }) => n.address),
        ["172.31.250.11", "172.31.250.12"],
    );

    const statusRun = await cli("status", "--id", ID, "--json");
    assert.equal(statusRun.code, 0, statusRun.stderr);
    assert.equal(JSON.parse(statusRun.stdout).healthy, true);

    // exec runs inside the host: its hostname, its address, the command's own options and exit code.
    const inside = await cli(
        "exec",
        "--id",
        ID,
        "node2",
        "--",
        "sh",
        "-c",
        'hostname; ip -o -4 addr show dev eth0 | grep -c "$1"; exit 3',
        "sh",
        "172.31.250.12/",
    );
    assert.equal(inside.code, 3, inside.stderr);
    assert.equal(inside.stdout, "node2\n1\n");
    const stranger = await cli("exec", "--id", ID, "node9", "--", "true");
    assert.equal(stranger.code, 1);
    assert.match(stranger.stderr, /local cluster lccli has no host "node9" \(hosts: node1, node2\)/);

    const downRun = await cli("down", "--id", ID);
    assert.equal(downRun.code, 0, downRun.stderr);
    assert.match(downRun.stdout, /3 namespaces and 4 links removed/);
    assert.deepEqual(leftovers(ID), { netns: [], links: [], mounts: [] });

    const after = await cli("status", "--id", ID);
    assert.equal(after.code, 1);
    assert.match(after.stdout, /not up/);
    fs.rmSync(dir, { recursive: true, force: true });
});

test("bad usage exits 2 with the usage text; bad values name the problem", async () => {
    const unknown = await cli("frobnicate");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"[\s\S]*usage: localcluster/);
    const badId = await cli("status", "--id", "Bad-Id");
    assert.equal(badId.code, 1);
    assert.match(badId.stderr, /invalid local cluster id "Bad-Id"/);
    const noCommand = await cli("exec", "--id", ID, "node1");
    assert.equal(noCommand.code, 2);
    assert.match(noCommand.stderr, /exec takes one host, then -- and the command/);
    const dashElsewhere = await cli("status", "--id", ID, "--", "true");
    assert.equal(dashElsewhere.code, 2);
    assert.match(dashElsewhere.stderr, /only exec takes -- and a command/);
    const badCount = await cli("up", "many", "--id", ID);
    assert.equal(badCount.code, 2);
    assert.deepEqual(leftovers(ID).netns, []);
});
