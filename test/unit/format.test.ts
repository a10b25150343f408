// Every TypeScript and JavaScript file of the repository is as the committed formatter
// configuration (.prettierrc.json) writes it; `npm run format` fixes what this names.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import * as prettier from "prettier";
import { repoFiles } from "../../tools/repoFiles";

const ROOT = path.resolve(__dirname, "../..");

test("every source file is formatted as .prettierrc.json says", async () => {
    const files = [".ts", ".mjs", ".cjs"].flatMap((suffix) => repoFiles(ROOT, suffix));
    const unformatted: string[] = [];
    for (const file of files) {
        const { ignored } = await prettier.getFileInfo(file, {
            ignorePath: [path.join(ROOT, ".gitignore"), path.join(ROOT, ".prettierignore")],
        });
        if (ignored) continue;
        const options = await prettier.resolveConfig(file);
        assert.ok(options, `no formatter configuration applies to ${file}`);
        if (!(await prettier.check(fs.readFileSync(file, "utf8"), { ...options, filepath: file })))
            unformatted.push(path.relative(ROOT, file));
    }
    assert.ok(files.length > 400, `only ${files.length} source files found`);
    assert.deepEqual(unformatted, [], "run `npm run format`");
});
