// The policy pack: `pulumi preview --policy-pack policy/` (docs/policies.md). Constructing the
// PolicyPack starts the analyzer server the engine talks to, so only this file does; the rules
// are plain objects in ./rules, which the tests run against the program's resources.
import { PolicyPack } from "@pulumi/policy";
import { POLICIES } from "./rules";

new PolicyPack("ovn-kubernetes-network", { policies: POLICIES });
