// The `@ovn-kubernetes-as-code/lab/scenarios` entry: what other packages may use of scenarios/.
export { bringUpGatewayLab, changeGateways } from "../scenarios/gatewayChange";
export { ChangeOutcome, Traffic, bringUpLiveLab, changeEncapType } from "../scenarios/liveChange";
export { NEW_MTU, changeMtu } from "../scenarios/mtuChange";
export { ok, totals } from "../scenarios/nodeChange";
export { addNodeSteps, removeNodeSteps, renameNodeSteps } from "../scenarios/nodeScenarios";
export { OvnkubeLab, bringUpOvnkubeLab, withoutHost, writeLabStack } from "../scenarios/ovnkubeLab";
export { addOvnkubeNode } from "../scenarios/ovnkubeNodeAddition";
export { removeOvnkubeNode } from "../scenarios/ovnkubeNodeRemoval";
export { waitOvnkubePodsRunning } from "../scenarios/ovnkubePods";
export { upgradeUnderProbes } from "../scenarios/ovnkubeUpgrade";
