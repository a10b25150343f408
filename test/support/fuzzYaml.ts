// Stack files whose scalars are spelled the ways YAML allows, for the stack file reader: each
// spelling is built with what go-yaml (the Pulumi CLI's reader) makes of it, known by construction.
// Property: the reader either refuses the file at that setting's path and line, or returns exactly
// what the Pulumi CLI would pass on.
import assert from "node:assert/strict";
import fc from "fast-check";
import { ConfigError } from "../../components/config/problem";
import { configFromStackYaml } from "../../components/config/stackFile";

interface Spelling {
    text: string;
    /** What go-yaml v3.0.1 reads (resolve.go): a number, a string, or a date it reformats (undefined). */
    go: number | string | undefined;
}

const spelling: fc.Arbitrary<Spelling> = fc.oneof(
    fc.nat(70000).map((n) => ({ text: String(n), go: n })),
    fc.integer({ min: 1, max: 70000 }).map((n) => ({ text: `0${n.toString(8)}`, go: n })),
    fc.tuple(fc.integer({ min: 10, max: 70000 }), fc.nat(3)).map(([n, k]) => {
        const d = String(n);
        const at = 1 + (k % (d.length - 1));
        return { text: `${d.slice(0, at)}_${d.slice(at)}`, go: n };
    }),
    fc.nat(70000).map((n) => ({ text: `0b${n.toString(2)}`, go: n })),
    fc.nat(70000).map((n) => ({ text: `0x${n.toString(16)}`, go: n })),
    fc.nat(70000).map((n) => ({ text: `+0x${n.toString(16)}`, go: n })),
    fc.nat(70000).map((n) => ({ text: `-0o${n.toString(8)}`, go: -n })),
    fc
        .tuple(fc.integer({ min: 1970, max: 2999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
        .map(([y, m, d]) => ({ text: `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`, go: undefined })),
    fc.constantFrom<Spelling>(
        { text: "yes", go: "yes" },
        { text: "off", go: "off" },
        { text: "1e3", go: 1000 },
        { text: "08", go: 8 },
        { text: "0.5", go: 0.5 },
        { text: "10.0.0.0/8", go: "10.0.0.0/8" },
        { text: "v1.3.0", go: "v1.3.0" },
    ),
);

const KEYS = ["mtu", "hostSubnetLength", "ssh.port", "nodes[0].port", "nodes[0].name"] as const;

/** A stack file setting `key` to the spelling, written as a user would (nested keys as YAML mappings). */
function stackFile(key: (typeof KEYS)[number], s: Spelling): string {
    switch (key) {
        case "ssh.port":
            return `config:\n  ovn-kubernetes:ssh:\n    port: ${s.text}\n`;
        case "nodes[0].port":
        case "nodes[0].name":
            return `config:\n  ovn-kubernetes:nodes:\n    - address: 10.0.0.1\n      ${key.slice(9)}: ${s.text}\n`;
        default:
            return `config:\n  aws:region: eu-west-1\n  ovn-kubernetes:${key}: ${s.text}\n`;
    }
}

const valueAt = (raw: Record<string, any>, key: string): unknown =>
    key
        .split(/\.|\[(\d+)\]\.?/)
        .filter(Boolean)
        .reduce<any>((o, k) => o?.[k], raw);

export async function runYamlFuzz(runs: number, seed?: number): Promise<{ runs: number; refused: number }> {
    let refused = 0;
    await fc.assert(
        fc.property(fc.constantFrom(...KEYS), spelling, (key, s) => {
            const text = stackFile(key, s);
            let raw: Record<string, any>;
            try {
                raw = configFromStackYaml(text);
            } catch (e) {
                assert.ok(e instanceof ConfigError, `not a ConfigError: ${e}`);
                assert.deepEqual(
                    e.problems.map((p) => p.path),
                    [key],
                );
                const line = text.split("\n").findIndex((l) => l.endsWith(`: ${s.text}`)) + 1;
                assert.match(e.problems[0].message, new RegExp(`^line ${line}: `));
                refused++;
                return;
            }
            assert.notEqual(s.go, undefined, `${s.text} passed, but the Pulumi CLI reformats it as a date`);
            assert.equal(
                valueAt(raw, key),
                s.go,
                `${s.text}: this program reads ${JSON.stringify(valueAt(raw, key))}, the Pulumi CLI ${s.go}`,
            );
        }),
        { numRuns: runs, seed },
    );
    return { runs, refused };
}
