// Stack files the Pulumi CLI (go-yaml) and this program's reader (yaml) read differently are refused
// at the setting's path and line; the rest is read alike, including what YAML 1.1 would change.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError } from "../../components/config/problem";
import { configFromStackYaml } from "../../components/config/stackFile";
import { runYamlFuzz } from "../support/fuzzYaml";

/** A stack file's text, the config path it must be refused at, and the reason. */
const INVALID_FILES: Array<[string, string, string, RegExp]> = [
    [
        "zero-padded port",
        "config:\n  ovn-kubernetes:ssh:\n    port: 0022\n",
        "ssh.port",
        /^line 3: the value `0022` is 18 \(a leading 0 makes it octal\) to the Pulumi CLI \(go-yaml\) and 22 to this program; write the number you mean in plain decimal/,
    ],
    ["zero-padded MTU", "config:\n  ovn-kubernetes:mtu: 01400\n", "mtu", /is 768 .* and 1400 to this program/],
    [
        "digits grouped with _",
        "config:\n  ovn-kubernetes:mtu: 1_400\n",
        "mtu",
        /is 1400 \(go-yaml drops the _ in numbers\) .* and "1_400" to this program/,
    ],
    ["binary number", "config:\n  ovn-kubernetes:hostSubnetLength: 0b11000\n", "hostSubnetLength", /is 24 \(a 0b binary number\)/],
    [
        "signed hexadecimal",
        "config:\n  ovn-kubernetes:nodes:\n    - name: a\n      port: +0x16\n",
        "nodes[0].port",
        /^line 4: .*signed hexadecimal/,
    ],
    ["a date as a node name", "config:\n  ovn-kubernetes:nodes:\n    - name: 2026-01-02\n", "nodes[0].name", /is a timestamp.*quote it/],
    [
        "a merge key",
        "config:\n  ovn-kubernetes:kubernetes:\n    <<: {enabled: true}\n",
        "kubernetes",
        /^line 3: a `<<` key merges a mapping for the Pulumi CLI/,
    ],
    ["zero-padded key", "config:\n  ovn-kubernetes:ovnkube:\n    010: x\n", "ovnkube.10", /the key `010` is 8/],
    [
        "a secret spelled as an octal number",
        "config:\n  ovn-kubernetes:k8sApiToken: 0777\n",
        "k8sApiToken",
        /^line 2: the value is read as one value by the Pulumi CLI \(go-yaml\) and as another by this program/,
    ],
];

for (const [what, text, path, reason] of INVALID_FILES)
    test(`refuses a stack file: ${what} → ${path}`, () => {
        const e = (() => {
            try {
                configFromStackYaml(text);
            } catch (err) {
                return err;
            }
        })();
        assert.ok(e instanceof ConfigError, `accepted: ${what}`);
        const hits = e.problems.filter((p) => p.path === path);
        assert.ok(
            hits.some((h) => reason.test(h.message)),
            JSON.stringify(e.problems),
        );
        assert.ok(!e.message.includes("0777") && !e.message.includes("511"), "a secret's value in the message");
    });

test("read alike: hexadecimal, 0o octal, floats, 08, yes/no/on/off (strings to both: go-yaml makes them booleans only for a bool field)", () => {
    const raw = configFromStackYaml(
        "config:\n  ovn-kubernetes:a: 0x1F\n  ovn-kubernetes:b: 0o17\n  ovn-kubernetes:c: 1e3\n  ovn-kubernetes:d: 08\n  ovn-kubernetes:e: yes\n  ovn-kubernetes:f: off\n  ovn-kubernetes:g: '0022'\n  ovn-kubernetes:h: 007\n",
    );
    assert.deepEqual(raw, { a: 31, b: 15, c: 1000, d: 8, e: "yes", f: "off", g: "0022", h: 7 });
});

test("400 spellings of scalars: refused at their path and line, or read as the Pulumi CLI reads them", async () => {
    const r = await runYamlFuzz(400, 20261128);
    assert.ok(r.refused > 100 && r.refused < 350, `${r.refused} of 400 refused`);
});
