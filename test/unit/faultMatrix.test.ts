// The fault matrix's table: cells reported by a test reach `npm run faults`' reporter
// (tools/faultMatrix.mjs) and are printed in the order they ran, one row each.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "../../lab/projectRoot";

test("cells reported by a test are printed as one table, a row each, with the time to converge where there is one", async () => {
    const { stdout } = await promisify(execFile)(
        process.execPath,
        [
            "--import",
            "tsx",
            "--test",
            "--test-reporter=./tools/faultMatrix.mjs",
            "--test-reporter-destination=stdout",
            "test/fixtures/faultMatrix/twoCells.ts",
        ],
        // Without the runner's own variable, the child runs as a test run of its own, not as this one's subprocess.
        { cwd: PROJECT_ROOT, env: { ...process.env, NODE_TEST_CONTEXT: undefined } },
    );
    const rows = stdout.split("\n").filter((l) => l.startsWith("|"));
    assert.match(stdout, /# fault matrix: 2 cells/);
    assert.equal(rows.length, 4, stdout);
    assert.deepEqual(
        rows[0]
            .split("|")
            .map((c) => c.trim())
            .filter(Boolean),
        ["fault", "injected", "mode", "outcome", "converged in"],
    );
    assert.match(rows[2], /^\| the engine killed +\| the NB writes +\| Pulumi +\| the next up converged +\| 12\.3 s +\|$/);
    // A `|` in a cell would split its row: it is escaped.
    assert.match(rows[3], /^\| a host's disk full +\| the bundle's install +\| ovnkube +\| up failed \\\| named the host +\| — +\|$/);
    assert.equal(new Set(rows.map((r) => r.length)).size, 1, "columns aligned");
});
