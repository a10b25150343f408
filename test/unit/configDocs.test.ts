// The settings table of docs/configuration.md is the JSON Schema's: every setting is described
// once, in components/config/schema.ts, and `npm run gen:config-docs` writes the table.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { stackConfigSchema } from "../../components/config/schema";
import { CONFIG_DOC, configRows, configTable, withTable } from "../../tools/genConfigDocs";

test("docs/configuration.md holds the settings table the schema gives (npm run gen:config-docs)", () => {
    const doc = readFileSync(CONFIG_DOC, "utf8");
    assert.equal(withTable(doc, configTable()), doc);
});

test("every setting of the schema has its row, with its default or that it is required", () => {
    const rows = configRows(stackConfigSchema as never);
    assert.ok(
        rows.some((r) =>
            r.startsWith(
                "| `clusterSubnet` | required | the pod network, split into node subnets: one CIDR, or an IPv4 and an IPv6 CIDR joined by a comma",
            ),
        ),
    );
    assert.ok(rows.includes("| `ovnTransport.nbPort` | `6641` | the NB database's port |"));
    assert.ok(rows.some((r) => r.startsWith("| `nodes[].gateway.mode` | required | ") && r.includes("one of `dedicated`, `shared`")));
    assert.ok(rows.some((r) => r.startsWith("| `kubeconfig` | — | ovnkube mode: the kubeconfig")));
});

test("a description changed in the schema changes the table; a setting without one is named", () => {
    const schema = structuredClone(stackConfigSchema) as any;
    schema.properties.mtu.description = "another meaning";
    const doc = readFileSync(CONFIG_DOC, "utf8");
    assert.notEqual(withTable(doc, configTable(schema)), doc);
    delete schema.properties.ovnTransport.properties.sbPort.description;
    assert.throws(() => configRows(schema), /ovnTransport\.sbPort has no description/);
});
