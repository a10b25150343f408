// Valid stack configs for tests, read from the example stacks so tests and examples cannot drift.
import * as path from "path";
import { readStackFile } from "@ovn-kubernetes-as-code/cluster/config";
import { PROJECT_ROOT } from "../projectRoot";

/** The repository root, where the example stacks are. */
export const ROOT = PROJECT_ROOT;

/** The example stacks: dev (Pulumi mode), prod (ovnkube mode, centralized), staging (ovnkube mode, interconnect). */
export type ExampleStack = "dev" | "prod" | "staging";

export function stackConfig(stack: ExampleStack): Record<string, any> {
    return readStackFile(path.join(ROOT, "stacks", `Pulumi.${stack}.yaml`));
}

/**
 * A config of `n` worker nodes plus a central master, unpinned subnets, for plan tests: a lab that
 * pins no host keys (one key pinned on every host would be a copied key, which validation refuses).
 */
export function manyNodes(names: string[]): Record<string, any> {
    const base = stackConfig("dev");
    base.nodes = [
        { name: "master", address: "10.0.0.1", roles: ["central", "master"] },
        ...names.map((name, i) => ({ name, address: `10.0.${1 + Math.floor((i + 2) / 250)}.${(i + 2) % 250}`, roles: ["node"] })),
    ];
    base.ssh = { insecureIgnoreHostKey: true };
    base.lab = true;
    return base;
}
