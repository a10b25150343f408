// The CLIs' habits (docs/cli.md): --json documents of a fixed shape, exit codes 0 / 1 / 2, colour
// only on a terminal without NO_COLOR, and progress lines with the elapsed time.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { ROOT } from "../../lab/harness/configs";
import { checkSvg } from "../support/svgCheck";
import { elapsed, withProgress } from "../../cli/terminal/progress";
import { colourOn, paint } from "../../cli/terminal/style";

const cli = (tool: string, ...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", `cli/${tool}.ts`, ...args], { cwd: ROOT, encoding: "utf8" });
const tmp = () => mkdtempSync(path.join(tmpdir(), "cli-"));

function badStack(): string {
    const file = path.join(tmp(), "Pulumi.bad.yaml");
    writeFileSync(
        file,
        readFileSync(path.join(ROOT, "stacks/Pulumi.dev.yaml"), "utf8").replace("address: 10.0.0.11", "address: 10.0.0.300"),
    );
    return file;
}

test("validate --json: a valid stack → exit 0, {file, valid, summary, warnings}", () => {
    const r = cli("validate", "stacks/Pulumi.dev.yaml", "--json");
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(doc), ["file", "valid", "summary", "warnings"]);
    assert.deepEqual(doc.summary, {
        hosts: 3,
        nodeSwitches: 3,
        gateways: 1,
        clusterSubnet: "192.168.0.0/16",
        writer: "pulumi",
        architecture: "centralized",
        nbAddress: "tcp:10.0.0.10:6641",
    });
    assert.deepEqual(
        doc.warnings.map((w: { path: string }) => w.path),
        ["ovnTransport.protocol"],
    );
    assert.equal(JSON.parse(cli("validate", "stacks/Pulumi.staging.yaml", "--json").stdout).summary.ovnkubeVersion, "1.3");
});

test("validate: a bad stack → exit 1, the problem naming its path and value, as text and as --json", () => {
    const file = badStack();
    const text = cli("validate", file);
    assert.equal(text.status, 1);
    assert.match(text.stderr.split("\n")[0], /Pulumi\.bad\.yaml: nodes\[1\]\.address: .*10\.0\.0\.300/);
    assert.equal(text.stdout, "");
    const json = cli("validate", file, "--json");
    assert.equal(json.status, 1);
    const doc = JSON.parse(json.stdout);
    assert.deepEqual(Object.keys(doc), ["file", "valid", "problems"]);
    assert.equal(doc.valid, false);
    assert.equal(doc.problems[0].path, "nodes[1].address");
    assert.match(doc.problems[0].message, /10\.0\.0\.300/);
    const missing = JSON.parse(cli("validate", path.join(tmp(), "Pulumi.none.yaml"), "--json").stdout);
    assert.equal(missing.problems[0].path, "(file)");
    assert.match(missing.problems[0].message, /ENOENT/);
});

test("wrong arguments → exit 2 with the usage line: validate, render, status", () => {
    for (const [tool, args] of [
        ["validate", []],
        ["validate", ["stacks/Pulumi.dev.yaml", "stacks/Pulumi.prod.yaml"]],
        ["validate", ["stacks/Pulumi.dev.yaml", "--frobnicate"]],
        ["render", ["--svg"]],
        ["render", ["stacks/Pulumi.dev.yaml", "--out"]],
        ["status", ["stacks/Pulumi.dev.yaml"]],
    ] as const) {
        const r = cli(tool, ...args);
        assert.equal(r.status, 2, `${tool} ${args.join(" ")}: ${r.stderr}`);
        assert.match(r.stderr, new RegExp(`^usage: npm run ${tool} -- `), `${tool} ${args.join(" ")}`);
    }
});

test("render --svg --json: exit 0, what was written as JSON, the planned topology a well-formed SVG naming every node; a bad stack exits 1 with its problems", () => {
    const out = tmp();
    const r = cli("render", "stacks/Pulumi.prod.yaml", "--out", out, "--svg", "--json");
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(
        doc.files,
        ["kubernetes.yaml", "plan.json", "crds.json", "topology.svg"].map((f) => path.join(out, f)),
    );
    assert.equal(doc.writer, "ovnkube");
    assert.equal(doc.nodes, 4);
    const { boxes } = checkSvg(readFileSync(path.join(out, "topology.svg"), "utf8"));
    for (const node of ["master-0", "worker-0", "worker-1", "worker-2"]) assert.equal(boxes.get(node), "box switch", node);
    const bad = cli("render", badStack(), "--out", out, "--json");
    assert.equal(bad.status, 1);
    assert.equal(JSON.parse(bad.stdout).problems[0].path, "nodes[1].address");
});

test("colour only on a terminal and never with NO_COLOR set", () => {
    assert.equal(colourOn({ isTTY: true }, {}), true);
    assert.equal(colourOn({ isTTY: true }, { NO_COLOR: "1" }), false);
    assert.equal(colourOn({ isTTY: true }, { NO_COLOR: "" }), true, "an empty NO_COLOR does not count (no-color.org)");
    assert.equal(colourOn({ isTTY: false }, {}), false);
    assert.equal(paint({ isTTY: true }, "red", "x", { NO_COLOR: "1" }), "x");
    assert.equal(paint({ isTTY: true }, "red", "x", {}), "\x1b[31mx\x1b[0m");
    // The CLIs' own streams are pipes here: no escape codes in their output.
    assert.doesNotMatch(cli("validate", badStack()).stderr, /\x1b\[/);
});

test("progress: a line per interval while the work runs, the elapsed time at the end, and on failure", async () => {
    let clock = 0;
    const lines: string[] = [];
    let ticked: () => void;
    const twoTicks = new Promise<void>((resolve) => (ticked = resolve));
    const write = (line: string) => {
        lines.push(line);
        clock += 1500;
        if (lines.length === 2) ticked();
    };
    const result = await withProgress("apply", () => twoTicks.then(() => 42), { write, every: 1, now: () => clock });
    assert.equal(result, 42);
    assert.deepEqual(lines, ["  … apply: 0.0 s", "  … apply: 1.5 s", "  apply: done in 3.0 s"]);
    await assert.rejects(
        withProgress("checks", () => Promise.reject(new Error("boom")), { write: (l) => lines.push(l), now: () => 65_000 }),
        /boom/,
    );
    assert.equal(lines.at(-1), "  checks: failed after 0.0 s");
    assert.equal(elapsed(125_400), "2 min 5 s");
});
