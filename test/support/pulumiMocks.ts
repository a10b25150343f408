// Runs the real program (index.ts) under the Pulumi SDK's mocks with a stack file's config and
// test secrets, recording every registered resource. One program per process: node's test runner
// gives each test file its own process, which Pulumi's global runtime state needs.
import * as pulumi from "@pulumi/pulumi";
import * as path from "path";
import { readStackFile } from "../../components/config/stackFile";
import { SECRET_KEYS } from "../../components/config/types";
import { ROOT } from "./configs";

export interface Recorded {
    type: string;
    name: string;
    inputs: Record<string, any>;
    /** URN of the parent as the mock saw it (children carry `parent`). */
    parent?: string;
    urn: string;
}

/** Distinctive secret values, so a test can search every output for them. */
export const TEST_SECRETS: Record<string, string> = Object.fromEntries(
    SECRET_KEYS.map((k) => [k, `-----BEGIN TEST ${k.toUpperCase()}-----\nc2VjcmV0LXZhbHVlLW9mLSR7a30=${k}\n-----END TEST-----`]),
);

export async function runProgramUnderMocks(stack: string, overrides: Record<string, unknown> = {}) {
    const raw = { ...readStackFile(path.join(ROOT, "stacks", `Pulumi.${stack}.yaml`)), ...overrides };
    const config: Record<string, string> = {};
    const secretKeys: string[] = [];
    for (const [k, v] of Object.entries(raw)) {
        const key = `ovn-kubernetes:${k}`;
        if ((SECRET_KEYS as readonly string[]).includes(k)) {
            config[key] = TEST_SECRETS[k];
            secretKeys.push(key);
        } else config[key] = typeof v === "string" ? v : JSON.stringify(v);
    }
    const resources: Recorded[] = [];
    await pulumi.runtime.setMocks(
        {
            newResource(args: pulumi.runtime.MockResourceArgs) {
                const parent = (args as any).parent as string | undefined;
                resources.push({ type: args.type, name: args.name, inputs: args.inputs, urn: (args as any).urn ?? "", parent });
                const outputs: Record<string, unknown> = { ...args.inputs };
                // The chassis script prints the system-id last; stand in for it.
                if (args.type === "command:remote:Command") outputs.stdout = "3f1e4d5c-0b6a-4e8f-9a7d-2c1b0e9f8a76\n";
                return { id: `${args.name}-id`, state: outputs };
            },
            call: (args: pulumi.runtime.MockCallArgs) => args.inputs,
        },
        "ovn-kubernetes",
        stack,
        false,
    );
    pulumi.runtime.setAllConfig(config, secretKeys);
    const program = await import("../../index");
    return { program, resources };
}

/** Resolves an Output's value and whether it is secret. */
export function settle<T>(o: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
    return new Promise((resolve) => {
        const out = o as any;
        Promise.all([out.promise(), out.isSecret]).then(([value, secret]: [T, boolean]) => resolve({ value, secret }));
    });
}
