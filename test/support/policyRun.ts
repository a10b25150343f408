// Runs the policy pack's rules over a program's recorded resources as the analyzer does: each
// resource's inputs go through the engine's wire form (a protobuf Struct) and the policy SDK's own
// deserialization (secrets unwrapped), every resource rule sees every resource, every stack rule
// the whole stack, with the rule's configuration and the stack's tags.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Policies, PolicyResource, ReportViolation, ResourceValidationArgs } from "@pulumi/policy";
import { ROOT } from "../../lab/harness/configs";
import type { Recorded } from "../../lab/harness/pulumiMocks";

const sdk = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const { Struct } = sdk("google-protobuf/google/protobuf/struct_pb");
const { deserializeProperties } = require("@pulumi/policy/deserialize") as {
    deserializeProperties(s: unknown, proxySecrets: boolean): Record<string, any>;
};

/** The resources the program registers for `stack` (with `overrides` of its config), from a process of their own. */
export function recordStack(stack: string, overrides: Record<string, unknown> = {}): Promise<Recorded[]> {
    const out = path.join(mkdtempSync(path.join(tmpdir(), "policy-")), "resources.json");
    return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", "test/support/recordProgram.ts", stack, out, JSON.stringify(overrides)], {
            cwd: ROOT,
            stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (d) => (stderr += d));
        child.on("exit", (code) =>
            code === 0
                ? resolve(JSON.parse(readFileSync(out, "utf8")))
                : reject(new Error(`recording ${stack} failed (${code}): ${stderr}`)),
        );
    });
}

export interface Violation {
    policy: string;
    resource: string;
    message: string;
}

export interface PolicyRun {
    /** The stack's name, as the URNs carry it. */
    stack: string;
    /** Policy name → its configuration, as `--policy-pack-config` gives it. */
    config?: Record<string, object>;
    stackTags?: Record<string, string>;
}

export async function runPolicies(policies: Policies, recorded: readonly Recorded[], run: PolicyRun): Promise<Violation[]> {
    const stackTags = new Map(Object.entries(run.stackTags ?? {}));
    const resources: PolicyResource[] = recorded.map((r) => ({
        type: r.type,
        name: r.name,
        urn: `urn:pulumi:${run.stack}::ovn-kubernetes::${r.type}::${r.name}`,
        props: deserializeProperties(Struct.fromJavaScript(JSON.parse(JSON.stringify(r.inputs))), false),
        opts: {
            protect: false,
            ignoreChanges: [],
            aliases: [],
            customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
            additionalSecretOutputs: r.secretOutputs ?? [],
        },
        dependencies: [],
        propertyDependencies: {},
        isType: () => false,
        asType: () => undefined,
    }));
    // None of the rules calls it; the SDK's version ends the rule's run by throwing, so does this one.
    const notApplicable = (reason?: string): never => {
        throw new Error(`not applicable: ${reason}`);
    };
    const violations: Violation[] = [];
    for (const policy of policies) {
        const getConfig = <T extends object>() => (run.config?.[policy.name] ?? {}) as T;
        const report =
            (resource: string): ReportViolation =>
            (message, urn) =>
                void violations.push({ policy: policy.name, resource: urn ? urn.split("::").pop()! : resource, message });
        if ("validateStack" in policy && policy.validateStack) {
            await policy.validateStack({ resources, stackTags, getConfig, notApplicable }, report("(stack)"));
            continue;
        }
        if (!("validateResource" in policy) || !policy.validateResource) continue;
        const validations = [policy.validateResource].flat();
        for (const r of resources) {
            const args: ResourceValidationArgs = { ...r, asType: () => undefined, stackTags, getConfig, notApplicable };
            for (const v of validations) await v(args, report(r.name));
        }
    }
    return violations;
}
