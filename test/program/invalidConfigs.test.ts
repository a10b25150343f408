// Every invalid config of the table, read through the Pulumi SDK's config (as the program reads
// it), is rejected with its path before the program would register anything.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { SECRET_KEYS } from "../../components/config/types";
import { ConfigError, validateConfig } from "../../components/config/validate";
import { readStackConfig } from "../../components/program/readConfig";
import { stackConfig } from "../support/configs";
import { INVALID } from "../support/invalidConfigs";
import { TEST_SECRETS } from "../support/pulumiMocks";

test("invalid configs through the SDK's config: rejected with their paths, nothing registered", async () => {
    let registered = 0;
    await pulumi.runtime.setMocks({ newResource: (a) => (registered++, { id: a.name, state: a.inputs }), call: (a) => a.inputs }, "ovn-kubernetes", "bad");
    for (const [what, mutate, path] of INVALID) {
        const raw = stackConfig("dev");
        mutate(raw);
        const config: Record<string, string> = {};
        const secretKeys: string[] = [];
        for (const [k, v] of Object.entries(raw)) {
            // A secret key with a plain string in the stack file is a plain (non-secret) config value.
            const secret = (SECRET_KEYS as readonly string[]).includes(k) && (v === "" || typeof v !== "string");
            config[`ovn-kubernetes:${k}`] = secret ? (v === "" ? "" : TEST_SECRETS[k]) : typeof v === "string" ? v : JSON.stringify(v);
            if (secret) secretKeys.push(`ovn-kubernetes:${k}`);
        }
        pulumi.runtime.setAllConfig(config, secretKeys);
        const { raw: read } = readStackConfig(new pulumi.Config("ovn-kubernetes"));
        assert.throws(
            () => validateConfig(read),
            (e: unknown) => e instanceof ConfigError && e.problems.some((p) => p.path === path),
            `${what}: expected a problem at ${path}`,
        );
    }
    assert.equal(registered, 0);
});
