// The Northbound log reader on files written by a real ovsdb-server, standalone and clustered: every
// committed transaction is found in order with its writer's comment, so that the end-to-end tests
// can attribute each cell of a central's or a zone's NB to its writer in either form.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, test } from "node:test";
import { parseNbLog, writerOf } from "../e2e/support/nbTransactionLog";

const NB_SCHEMA = "/usr/share/ovn/ovn-nb.ovsschema";
const work = fs.mkdtempSync(path.join(tmpdir(), "nb-log-"));
after(() => fs.rmSync(work, { recursive: true, force: true }));

function run(argv: string[]): string {
    const r = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", cwd: work });
    assert.equal(r.status, 0, `${argv.join(" ")}: ${r.stderr}`);
    return r.stdout;
}

/** Creates a database with `create`, then lets an ovsdb-server commit an ovn-nbctl and a comment-less (libovsdb-like) transaction. */
function writeLog(name: string, create: (db: string) => string[]): Buffer {
    const db = path.join(work, `${name}.db`);
    const sock = path.join(work, `${name}.sock`);
    const pid = path.join(work, `${name}.pid`);
    run(create(db));
    run([
        "ovsdb-server",
        "--detach",
        `--pidfile=${pid}`,
        `--remote=punix:${sock}`,
        `--unixctl=${path.join(work, `${name}.ctl`)}`,
        "--no-chdir",
        `--log-file=${path.join(work, `${name}.log`)}`,
        db,
    ]);
    try {
        run(["ovn-nbctl", `--db=unix:${sock}`, "--timeout=10", "ls-add", "sw1"]);
        run([
            "ovsdb-client",
            "--timeout=10",
            "transact",
            `unix:${sock}`,
            JSON.stringify(["OVN_Northbound", { op: "insert", table: "Logical_Switch", row: { name: "sw2" } }]),
        ]);
    } finally {
        run(["ovs-appctl", "-t", path.join(work, `${name}.ctl`), "exit"]);
    }
    return fs.readFileSync(db);
}

for (const [form, create] of [
    ["standalone", (db: string) => ["ovsdb-tool", "create", db, NB_SCHEMA]],
    ["clustered", (db: string) => ["ovsdb-tool", "create-cluster", db, NB_SCHEMA, "tcp:127.0.0.1:6699"]],
] as const) {
    test(`a ${form} Northbound log: the schema, then each committed transaction in order with its writer`, () => {
        const log = parseNbLog(writeLog(form, create));
        assert.equal(log.schema.name, "OVN_Northbound");
        const switches = log.transactions.filter((t) => t.rows.Logical_Switch);
        assert.equal(switches.length, 2, JSON.stringify(log.transactions));
        assert.deepEqual(
            switches.map((t) => writerOf(t)),
            ["other", "ovnkube"],
            "ovn-nbctl ls-add is nobody's host script; no comment is libovsdb's",
        );
        assert.match(switches[0].comment ?? "", /ls-add sw1$/);
        assert.ok(switches[0].index < switches[1].index);
        assert.deepEqual(
            Object.values(switches[1].rows.Logical_Switch).map((cols) => Object.keys(cols ?? {})),
            [["name"]],
        );
    });
}

test("a record whose SHA-1 does not match is refused, naming where", () => {
    const data = Buffer.from(
        writeLog("tampered", (db) => ["ovsdb-tool", "create", db, NB_SCHEMA])
            .toString("latin1")
            .replace('"sw2"', '"swX"'),
        "latin1",
    );
    assert.throws(() => parseNbLog(data), /OVSDB log: record \d+ at byte \d+ fails its SHA-1/);
});
