// The shared cluster as its interconnect checks reach it: the lab, its model, its zones (a zone per
// node), a node's plan by name and each zone's ovn-nbctl.
import type { OvnkubeNodeModel } from "../../../components/model/types";
import type { FamilyLab } from "../support/familyProof";
import { zoneNbctl, type Nbctl } from "../support/nodePlanProof";

export function zoneLab(family: () => FamilyLab) {
    const lab = () => family().lab;
    const model = () => lab().model;
    return {
        lab,
        model,
        zones: (): string[] =>
            model()
                .hosts.filter((h) => h.zone)
                .map((h) => h.name),
        planOf: (node: string): OvnkubeNodeModel => model().kube.nodes.find((n) => n.name === node)!,
        nbctlOf: (zone: string): Nbctl => zoneNbctl(lab(), zone),
    };
}
