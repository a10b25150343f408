// Every invalid config of the table, handed to the program as the engine hands it (plain keys as
// text, secrets as secret config values), is refused with its path by the program's own body
// (deployStack) before it registers anything.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { SECRET_KEYS } from "../../components/config/types";
import { deployStack } from "../../components/stack";
import { invalidCase, INVALID as SINGLE_STACK } from "../support/invalidConfigs";
import { INVALID_DUAL_STACK } from "../support/invalidDualStack";

const INVALID = [...SINGLE_STACK, ...INVALID_DUAL_STACK];
import { programState } from "../../lab/harness/pulumiMocks";

/** Sets the engine's config to a stack config: plain keys as text, secrets as secret values. */
function setEngineConfig(cfg: Record<string, unknown>, texts: Partial<Record<string, string>>): void {
    const config: Record<string, string> = {};
    const secretKeys: string[] = [];
    for (const [k, v] of Object.entries(cfg)) {
        const key = `ovn-kubernetes:${k}`;
        // A secret key with a plain string in the stack file is a plain (non-secret) config value.
        const secret = (SECRET_KEYS as readonly string[]).includes(k) && typeof v === "object";
        config[key] = secret ? texts[k]! : typeof v === "string" ? v : JSON.stringify(v);
        if (secret) secretKeys.push(key);
    }
    pulumi.runtime.setAllConfig(config, secretKeys);
}

test("invalid configs through the SDK's config: the program refuses each with its path and registers nothing", async () => {
    const registered: string[] = [];
    const newResource = async (a: pulumi.runtime.MockResourceArgs) => (
        registered.push(a.name),
        { id: a.name, state: await programState(a) }
    );
    await pulumi.runtime.setMocks({ newResource, call: (a) => a.inputs }, "ovn-kubernetes", "bad");
    for (const [what, mutate, path] of INVALID) {
        const { cfg, texts } = invalidCase(mutate);
        setEngineConfig(cfg, texts);
        assert.throws(
            () => deployStack(new pulumi.Config("ovn-kubernetes")),
            (e: unknown) => e instanceof pulumi.RunError && e.message.split("\n").some((line) => line.startsWith(`  ${path}: `)),
            `${what}: expected the program to refuse it at ${path}`,
        );
        assert.deepEqual(registered, [], `${what}: registered ${registered.join(", ")}`);
    }
    // The same path with the valid stack registers the cluster: the count above can see registrations.
    const valid = invalidCase(() => {});
    setEngineConfig(valid.cfg, valid.texts);
    deployStack(new pulumi.Config("ovn-kubernetes"));
    await (pulumi.runtime as unknown as { waitForRPCs(): Promise<void> }).waitForRPCs();
    assert.ok(registered.includes("ovn"), `the valid stack registered ${registered.length} resources`);
});
