// Each bad config is rejected with the config path it names; all problems are reported at once.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, validateConfig } from "../../components/plan/validate";
import { stackConfig } from "../../lab/harness/configs";
import { invalidCase, INVALID as SINGLE_STACK } from "../support/invalidConfigs";
import { INVALID_DUAL_STACK } from "../support/invalidDualStack";

const INVALID = [...SINGLE_STACK, ...INVALID_DUAL_STACK];

test(`at least 150 invalid configs (have ${INVALID.length})`, () => assert.ok(INVALID.length >= 150));

for (const [what, mutate, path, reason] of INVALID) {
    test(`rejects: ${what} → ${path}`, () => {
        const { cfg, texts } = invalidCase(mutate);
        let error: unknown;
        try {
            validateConfig(cfg, texts);
        } catch (e) {
            error = e;
        }
        assert.ok(error instanceof ConfigError, `expected a ConfigError for ${what}`);
        const hits = error.problems.filter((p) => p.path === path);
        assert.ok(hits.length > 0, `no problem at ${path}; got ${JSON.stringify(error.problems)}`);
        // A config may break one rule at one path in several ways: one of them must be this reason.
        if (reason)
            assert.ok(
                hits.some((h) => reason.test(h.message)),
                `no problem at ${path} matches ${reason}; got ${JSON.stringify(hits)}`,
            );
        assert.ok(error.message.includes(`${path}: `));
        // A secret's value is never shown.
        for (const t of Object.values(texts))
            assert.ok(
                !t.split("\n").some((line) => line.length > 20 && !line.startsWith("-----") && error.message.includes(line)),
                `${what}: a secret value in the message`,
            );
    });
}

test("all problems are reported at once", () => {
    const cfg = stackConfig("dev");
    cfg.mtu = 10;
    cfg.nodes[1].name = "BAD";
    cfg.encapType = "gre";
    try {
        validateConfig(cfg);
        assert.fail("accepted");
    } catch (e) {
        const paths = (e as ConfigError).problems.map((p) => p.path).sort();
        assert.deepEqual(paths, ["encapType", "mtu", "nodes[1].name"]);
    }
});
