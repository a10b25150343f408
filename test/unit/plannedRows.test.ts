// What `status --svg` compares a live Northbound database with (components/status/plannedRows)
// holds for Pulumi mode exactly what the project's own providers write: every planned row and
// column is found, with the same value, among the rows the NB resources would apply
// (render/northbound, the providers' row builders), compared as the live reading compares cells.
// A correct NB therefore shows no difference.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseColumnPath } from "../../components/nb/expectation/columns";
import { parseRowKey } from "../../components/nb/core/rowKeys";
import { canonicalCell } from "../../components/nb/expectation/cells";
import { refId, sameValue, type RowSpec } from "../../components/nb/core/rows";
import { TAG_GROUP } from "../../components/nb/core/tags";
import { desiredNorthbound } from "../../components/render/northbound";
import { plannedNbRows } from "../../components/status/plannedRows";
import { largePulumiStack, modelOf, stackFile } from "../../cli/pictures/examples";

function desiredRows(raw: Record<string, unknown>) {
    const model = modelOf(raw);
    const specs = desiredNorthbound(model, "ovn-kubernetes/test").flatMap((g) => g.rows);
    const byRef = new Map(specs.map((s) => [refId({ group: s.maps.external_ids[TAG_GROUP], key: s.key }), s]));
    const routerOf = (s: RowSpec) => (s.parent ? byRef.get(refId(s.parent))?.columns.name : undefined);
    /** The desired row a planned row key names. */
    const find = (text: string): RowSpec | undefined => {
        const k = parseRowKey(text);
        return specs.find((s) => {
            if (s.table !== k.table) return false;
            if (k.table === "NAT") return s.columns.type === k.type && s.columns.logical_ip === k.logicalIp && routerOf(s) === k.router;
            if (k.table === "Logical_Router_Static_Route")
                return s.columns.ip_prefix === k.ipPrefix && s.columns.nexthop === k.nexthop && routerOf(s) === k.router;
            return s.columns.name === k.name;
        });
    };
    return { model, find };
}

for (const [name, raw] of [
    ["dev", () => stackFile("dev")],
    ["a 50-node Pulumi-mode stack", largePulumiStack],
] as const) {
    test(`${name}: every row and column status compares is one the providers write, with the same value`, () => {
        const { model, find } = desiredRows(raw());
        const [nb] = plannedNbRows(model);
        assert.equal(plannedNbRows(model).length, 1, "Pulumi mode has one NB, the central's");
        let cells = 0;
        for (const [row, columns] of Object.entries(nb.rows)) {
            const spec = find(row);
            assert.ok(spec, `${row}: no such row among the desired rows`);
            for (const [path, expected] of Object.entries(columns)) {
                const { column, key } = parseColumnPath(parseRowKey(row).table, path);
                const written = key === undefined ? spec.columns[column] : spec.maps[column]?.[key];
                // As a live reading sees it: a one-element set reads as its atom.
                assert.ok(
                    written !== undefined && sameValue(canonicalCell(expected), canonicalCell(written)),
                    `${row} ${path}: planned ${expected}, written ${JSON.stringify(written)}`,
                );
                cells++;
            }
        }
        // The cluster router (3 rows), a switch and router port per node, 3 rows per gateway router and its name.
        assert.equal(Object.keys(nb.rows).length, 3 + 2 * model.nodeNetworks.length + 3 * model.gateways.length);
        assert.ok(cells >= Object.keys(nb.rows).length);
    });
}
