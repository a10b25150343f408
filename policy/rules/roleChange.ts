// No node role change on a running cluster without a drain. A policy sees what the stack is about
// to deploy, never the state it replaces (the analyzer is given inputs only), so the roles the
// cluster runs with now are part of the rule's configuration (`running`, node → roles, e.g. from
// the stack file as last applied), and the nodes drained for this change are listed in `drained`.
// The roles deployed are those the ChangeGuard records for every host. A node whose roles differ
// from `running` and is not in `drained` is a violation; a node not in `running` is new.
import type { PolicyConfigSchema, StackValidationPolicy } from "@pulumi/policy";
import { CHANGE_GUARD_TYPE } from "@ovn-kubernetes-as-code/cluster/guard";
import type { GuardedHost } from "@ovn-kubernetes-as-code/cluster/guard";
import { settingsOf } from "./scope";

interface Settings {
    running: Record<string, string[]>;
    drained: string[];
}

const roleList = (roles: readonly string[] | undefined) => [...(roles ?? [])].sort().join(",");

const settings: PolicyConfigSchema = {
    properties: {
        running: {
            type: "object",
            additionalProperties: { type: "array", items: { type: "string" } },
            default: {},
            description: "node name → the roles the running cluster gives it (the stack file as last applied)",
        },
        drained: { type: "array", items: { type: "string" }, default: [], description: "nodes drained for this change" },
    },
};

export const roleChangeNeedsDrain: StackValidationPolicy = {
    name: "role-change-needs-drain",
    description: "A node's roles change only when it is listed as drained (kubectl drain) in the rule's configuration.",
    enforcementLevel: "mandatory",
    configSchema: settings,
    validateStack(args, reportViolation) {
        const { running, drained } = settingsOf<Settings>(settings, args.getConfig());
        const guard = args.resources.find((r) => r.type === CHANGE_GUARD_TYPE);
        if (!guard) return;
        for (const host of guard.props.hosts as GuardedHost[]) {
            const before = running[host.name];
            if (before === undefined || drained.includes(host.name) || roleList(before) === roleList(host.roles)) continue;
            reportViolation(
                `node ${host.name}: roles [${before.join(", ")}] → [${(host.roles ?? []).join(", ")}] on a running cluster: ` +
                    `drain it first (kubectl drain ${host.name} --ignore-daemonsets --delete-emptydir-data), then list it in drained`,
                guard.urn,
            );
        }
    },
};
