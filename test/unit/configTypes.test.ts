// The JSON Schema and the config types cannot drift apart: the compiler refuses a key on one side
// alone, or a value typed differently, and names it (components/config/schemaShape.ts). The
// fixtures commit such mismatches; the package's own schema and types compile.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { test } from "node:test";
import { ROOT } from "../../lab/harness/configs";

const FIXTURES = path.join(ROOT, "test", "fixtures", "configTypes");

test("typecheck: a key added to the JSON Schema alone, to the type alone, or typed differently is a compile error naming it", () => {
    const tsc = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(FIXTURES, "tsconfig.json")], {
        cwd: ROOT,
        encoding: "utf8",
    });
    assert.notEqual(tsc.status, 0, "the mismatches compiled");
    const errorsOf = (file: string) => tsc.stdout.split(/\n(?=\S)/).filter((e) => e.startsWith(`test/fixtures/configTypes/${file}(`));
    assert.deepEqual(errorsOf("matching.ts"), [], "the package's schema and types should agree");
    assert.equal(tsc.stdout.includes("components/config/"), false, tsc.stdout);
    const expected: Record<string, string> = {
        "schemaOnly.ts": '"tunnelHeadroom?: number"',
        "typeOnly.ts": '"tunnelHeadroom?: number"',
        "nestedType.ts": '"nodes[].gateway?.mode: string"',
    };
    for (const [file, line] of Object.entries(expected)) {
        const errors = errorsOf(file);
        assert.ok(errors.length > 0, `${file} compiled`);
        assert.ok(
            errors.every((e) => e.includes("error TS2344")),
            errors.join("\n"),
        );
        assert.ok(
            errors.some((e) => e.includes(`Type '${line}' is not assignable`)),
            `${file}: ${line} not named in\n${errors.join("\n")}`,
        );
    }
});
