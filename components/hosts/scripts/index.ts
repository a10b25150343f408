// Pure generators of the host scripts: model in, bash text out, nothing run.
export { shellQuote, bashScript, lastStdoutLine, type HostScript } from "./shell";
export { checked, checkedInt, PATTERNS, type PatternName } from "../../values";
export { encodeSecretLines, SECRET_NAMES, type SecretName } from "./secrets";
export { packagesScript, pinnedVersion } from "./packagesScript";
export { ovsStartScript } from "./ovs";
export { centralMemberScript, centralScript } from "./centralScript";
export { zoneScript, NORTHD_BACKOFF_MS } from "./zoneScript";
export { ipsecScript, IKE_DAEMON, IPSEC_UNIT } from "./ipsecScript";
export { ovnkubeNodeCleanupScript, OVNKUBE_CNI_FILES } from "./ovnkubeNode";
export { chassisScript, parseSystemId, chassisNeedsK8sSecrets, chassisNeedsSsl, type ChassisAddresses } from "./chassisScript";
export { managementPortScript } from "./managementPortScript";
export { vtepScript, vtepBridgeOwner } from "./vtepScript";
export { vxlanModeScript } from "./vxlanModeScript";
export { bootProgram, HOST_NETWORK_DIR, BOOT_ENTRY, BOOT_PROGRAM_PATH, BOOT_FLOWS_LOG, nicPiece, mgmtPiece, flowsPiece } from "./boot";
export {
    gatewayBridgeScript,
    gatewayConfirmScript,
    gatewayFlowsScript,
    gatewayNic,
    localnetPatchPort,
    GATEWAY_CT_ZONE,
    PATCH_PORT_WAIT_SECONDS,
} from "./gatewayScript";
export {
    nicMoveScript,
    nicMoveConfirmScript,
    nicHandoverScript,
    parseNicMac,
    parseConfirmToken,
    bridgeOwner,
    HOST_STATE_DIR,
    BRIDGE_CLAIM_KEY,
    defaultMoveResource,
    MOVE_CONFIRM_SECONDS,
    MOVE_TEST_HOOKS,
    MOVE_STEPS,
    type NicBridge,
} from "./nicMoveScript";
export { BRIDGE_OWNER_KEY, INTEGRATION_BRIDGE } from "../../model/names";
