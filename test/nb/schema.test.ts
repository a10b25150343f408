// The NB row types are generated from the OVN schema the OVN packages install, and the row
// builders are held to them at compile time.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { NB_SCHEMA_SOURCE } from "../../components/nb/schema.gen";
import { rowSpec } from "../../components/nb/rows";
import { DEFAULT_SCHEMA, generate, OUTPUT } from "../../tools/genNbSchema";

test("schema.gen.ts is what the installed ovn-nb.ovsschema generates (regenerating gives no diff)", () => {
    const installed = readFileSync(DEFAULT_SCHEMA, "utf8");
    const schema = JSON.parse(installed) as { version: string; cksum: string };
    // Says which schema the types come from: a machine with another OVN fails here, naming both.
    assert.deepEqual({ version: schema.version, cksum: schema.cksum }, { version: NB_SCHEMA_SOURCE.version, cksum: NB_SCHEMA_SOURCE.cksum });
    assert.equal(generate(installed), readFileSync(OUTPUT, "utf8"));
});

test("a column the schema does not have, or a value it does not allow, fails to compile", () => {
    const build = () => [
        // @ts-expect-error: Logical_Switch has no column "nmae"
        rowSpec("o/s", "node/n", "switch", "Logical_Switch", { columns: { nmae: "n" } }),
        // @ts-expect-error: NAT.type is one of dnat, snat, dnat_and_snat
        rowSpec("o/s", "gateway/n", "snat", "NAT", { columns: { type: "masquerade", logical_ip: "10.0.0.0/8", external_ip: "1.2.3.4" }, router: "GR_n" }),
        // @ts-expect-error: Logical_Switch_Port.addresses is a set (string[]), not a string
        rowSpec("o/s", "node/n", "mgmt-port", "Logical_Switch_Port", { columns: { name: "k8s-n", addresses: "0a:58:0a:00:00:02 10.0.0.2" } }),
        // @ts-expect-error: `ports` is a reference set, not a map of the switch
        rowSpec("o/s", "node/n", "switch", "Logical_Switch", { columns: { name: "n" }, maps: { ports: { a: "b" } } }),
    ];
    // The rows still build at run time (the checks are the compiler's); the names are the OVN ones.
    assert.deepEqual(
        build().map((r) => r.name),
        ["Logical_Switch undefined", "NAT GR_n masquerade 10.0.0.0/8", "Logical_Switch_Port k8s-n", "Logical_Switch n"],
    );
});
