// The NB row types are generated from the OVN schema the OVN packages install, and the row
// builders are held to them at compile time.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { test } from "node:test";
import { NB_SCHEMA_SOURCE } from "../../components/nb/core/schema.gen";
import { childColumns, childTable, parentOf, type NbTable } from "../../components/nb/core/tables";
import { DEFAULT_SCHEMA, generate, OUTPUT } from "../../tools/genNbSchema";
import { PROJECT_ROOT } from "../../lab/harness/providerHost";

test("schema.gen.ts (row types, columns by kind, parent columns) is what the installed ovn-nb.ovsschema generates (regenerating gives no diff)", () => {
    const installed = readFileSync(DEFAULT_SCHEMA, "utf8");
    const schema = JSON.parse(installed) as { version: string; cksum: string };
    // Says which schema the types come from: a machine with another OVN fails here, naming both.
    assert.deepEqual(
        { version: schema.version, cksum: schema.cksum },
        { version: NB_SCHEMA_SOURCE.version, cksum: NB_SCHEMA_SOURCE.cksum },
    );
    assert.equal(generate(installed), readFileSync(OUTPUT, "utf8"));
});

test("each table's columns are sorted by kind, and only strong references to non-root tables make a parent", () => {
    const ref = (refTable: string, refType?: string) => ({
        key: { type: "uuid", refTable, ...(refType ? { refType } : {}) },
        min: 0,
        max: "unlimited",
    });
    const schema = {
        name: "OVN_Northbound",
        version: "1.0.0",
        tables: {
            Router: {
                isRoot: true,
                columns: {
                    name: { type: "string" },
                    ports: { type: ref("Port") },
                    lbs: { type: ref("Lb", "weak") },
                    groups: { type: ref("Group") },
                    options: { type: { key: "string", value: "string", min: 0, max: "unlimited" } },
                },
            },
            Port: { columns: { networks: { type: { key: "string", min: 1, max: "unlimited" } }, peer: { type: ref("Port", "weak") } } },
            Lb: { isRoot: true, columns: { vips: { type: { key: "string", value: "string", min: 0, max: "unlimited" } } } },
            Group: { isRoot: true, columns: { lbs: { type: ref("Lb", "weak") } } },
        },
    };
    const text = generate(JSON.stringify(schema), "fixture");
    assert.match(text, /^ {4}Router: \{ plain: \["name"\], maps: \["options"\], refs: \["groups","lbs","ports"\] \},$/m);
    assert.match(text, /^ {4}Port: \{ plain: \["networks"\], maps: \[\], refs: \["peer"\] \},$/m);
    const parents = text.slice(text.indexOf("export const NB_PARENTS"));
    assert.equal(
        parents
            .split("\n")
            .filter((l) => l.startsWith("    "))
            .join("\n"),
        '    Port: [{ table: "Router", column: "ports" }],',
    );
});

test("the reconciler's parent and child columns are the installed schema's", () => {
    assert.deepEqual(
        ["Logical_Switch_Port", "Logical_Router_Port", "Logical_Router_Static_Route", "NAT", "Logical_Switch", "Load_Balancer"].map((t) =>
            parentOf(t as NbTable),
        ),
        [
            { table: "Logical_Switch", column: "ports" },
            { table: "Logical_Router", column: "ports" },
            { table: "Logical_Router", column: "static_routes" },
            { table: "Logical_Router", column: "nat" },
            undefined,
            undefined,
        ],
    );
    assert.deepEqual(childColumns("Logical_Router"), ["ports", "static_routes", "nat"]);
    assert.equal(childTable("Logical_Router", "nat"), "NAT");
});

/** Type-checks `lines` as a module beside the row builder, with the project's compiler options; the errors by line. */
function compileErrors(lines: string[]): Record<number, string> {
    const dir = path.join(PROJECT_ROOT, "components/nb/core");
    const file = path.join(dir, "__columns_check.ts");
    const text = ['import { rowSpec } from "./rows";', ...lines.map((l, i) => `export const r${i} = ${l};`)].join("\n");
    const config = ts.parseJsonConfigFileContent(
        ts.readConfigFile(path.join(PROJECT_ROOT, "tsconfig.json"), ts.sys.readFile).config,
        ts.sys,
        PROJECT_ROOT,
    );
    const options = { ...config.options, noCheck: false, noEmit: true };
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version, ...rest) =>
        name === file ? ts.createSourceFile(name, text, version) : read(name, version, ...rest);
    host.fileExists = (name) => name === file || ts.sys.fileExists(name);
    const program = ts.createProgram([file], options, host);
    const errors: Record<number, string> = {};
    for (const d of ts.getPreEmitDiagnostics(program, program.getSourceFile(file))) {
        const line = d.file!.getLineAndCharacterOfPosition(d.start!).line - 1;
        errors[line] = `${errors[line] ?? ""}${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    }
    return errors;
}

test("a column the schema does not have, or a value it does not allow, fails to compile; the right ones compile", () => {
    const errors = compileErrors([
        'rowSpec("o/s", "node/n", "switch", "Logical_Switch", { columns: { name: "n" } })',
        'rowSpec("o/s", "node/n", "switch", "Logical_Switch", { columns: { nmae: "n" } })',
        'rowSpec("o/s", "gateway/n", "snat", "NAT", { columns: { type: "masquerade", logical_ip: "10.0.0.0/8", external_ip: "1.2.3.4" }, router: "GR_n" })',
        'rowSpec("o/s", "node/n", "mgmt-port", "Logical_Switch_Port", { columns: { name: "k8s-n", addresses: "0a:58:0a:00:00:02 10.0.0.2" } })',
        'rowSpec("o/s", "node/n", "switch", "Logical_Switch", { columns: { name: "n" }, maps: { ports: { a: "b" } } })',
    ]);
    assert.deepEqual(Object.keys(errors).map(Number), [1, 2, 3, 4], JSON.stringify(errors, null, 1));
    assert.match(errors[1], /'nmae'/);
    assert.match(errors[2], /"masquerade"/);
    assert.match(errors[3], /string\[\]/);
    assert.match(errors[4], /'ports'/);
});
