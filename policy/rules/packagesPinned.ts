// Host packages pinned in production: Open vSwitch and OVN at the versions the stack names
// (packages.openvswitchVersion, packages.ovnVersion), so every host of the cluster, and a host
// added next year, runs what was tested, never what the mirror serves that day. Judged on each
// host's package step, which its script bundle runs (`wanted`: name[=version] words);
// `packages.skip` (hosts bring their own) leaves nothing to judge.
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { SCRIPT_BUNDLE_TYPE } from "@ovn-kubernetes-as-code/cluster/hosts";
import { inProduction, productionSettings, scriptVar } from "./scope";

export const packagesPinned: ResourceValidationPolicy = {
    name: "host-packages-pinned",
    description:
        "In production stacks Open vSwitch and OVN packages are pinned to versions (packages.openvswitchVersion, packages.ovnVersion).",
    enforcementLevel: "mandatory",
    configSchema: productionSettings,
    validateResource(args, reportViolation) {
        if (args.type !== SCRIPT_BUNDLE_TYPE || typeof args.props.packages !== "string") return;
        if (!inProduction(args)) return;
        const wanted = scriptVar(args.props.packages, "wanted");
        if (wanted === undefined) return;
        const loose = wanted.split(" ").filter((w) => !w.includes("="));
        if (loose.length > 0)
            reportViolation(`${args.name}: ${loose.join(", ")} not pinned: set packages.openvswitchVersion and packages.ovnVersion`);
    },
};
