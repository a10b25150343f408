// The import rules (`npm run lint:imports`): on this repository nothing breaks them, and on a small
// tree that breaks each once, each is reported.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { CHECKED_DIRS, crossingImports, importCycles, layerBreaks, testImports } from "../../tools/lintImports";

test("no relative import crosses a package or reaches test/ from bench/, and no module imports itself round a circle", async () => {
    assert.deepEqual(crossingImports(), []);
    assert.deepEqual(testImports(), []);
    assert.deepEqual(await importCycles(CHECKED_DIRS), []);
});

test("inside components/ and its nb/ no import runs from a lower layer to a higher one", () => {
    assert.deepEqual(layerBreaks(), []);
});

test("an import against the layer order, and a folder in no layer, are each named", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "layers-"));
    const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), text);
    };
    try {
        write("nb/core/rows.ts", 'import { k } from "../kinds";\nexport const rows = k;\n');
        write("nb/kinds/index.ts", 'import { rows } from "../core/rows";\nexport const k = rows;\n');
        write("nb/kinds/a.ts", 'import { top } from "../index";\nexport const a = top;\n');
        write("nb/index.ts", 'export { k as top } from "./kinds";\n');
        write("nb/misc/b.ts", "export const b = 1;\n");
        assert.deepEqual(layerBreaks(root, { nb: ["core", "kinds"] }), [
            { file: "nb/core/rows.ts", specifier: "../kinds", reason: "core imports kinds, which lies above it (core < kinds)" },
            { file: "nb/kinds/a.ts", specifier: "../index", reason: "kinds imports (top), which lies above it (core < kinds)" },
            { file: "nb/misc/b.ts", specifier: "", reason: "nb/misc is in none of the layers core < kinds" },
        ]);
    } finally {
        fs.rmSync(root, { recursive: true, force: true });
    }
});

test("a crossing import, an import of test/ from bench/ and a circle are each named; test/ may reach into a package", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "imports-"));
    const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), text);
    };
    try {
        write("tsconfig.json", JSON.stringify({ compilerOptions: { module: "commonjs" } }));
        write("packages/a/package.json", "{}");
        write("packages/b/package.json", "{}");
        write("packages/a/x.ts", 'import { y } from "../b/y";\nexport const x = y;\n');
        write("packages/b/y.ts", 'import { z } from "./z";\nexport const y = 1;\nexport const w = z;\n');
        write("packages/b/z.ts", 'import type { y } from "./y";\nexport const z: typeof y = 2;\n');
        write("test/x.test.ts", 'import { x } from "../packages/a/x";\nexport const t = x;\n');
        write("bench/b.ts", 'import { t } from "../test/x.test";\nexport const b = t;\n');
        assert.deepEqual(crossingImports(root), [{ file: "packages/a/x.ts", specifier: "../b/y", target: "packages/b/y" }]);
        assert.deepEqual(testImports(root), [{ file: "bench/b.ts", specifier: "../test/x.test", target: "test/x.test" }]);
        assert.deepEqual(await importCycles(["packages"], root), [["packages/b/y.ts", "packages/b/z.ts"]]);
    } finally {
        fs.rmSync(root, { recursive: true, force: true });
    }
});
