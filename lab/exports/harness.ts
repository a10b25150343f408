// The `@ovn-kubernetes-as-code/lab/harness` entry: what other packages may use of harness/.
export { Tracked, track, up } from "../harness/engine";
export { KEY_CONFIG, OWNER, devModel, startEnv } from "../harness/env";
export { NbServer, startNbServer } from "../harness/nbServer";
export { PROJECT_ROOT, startProviderHost } from "../harness/providerHost";
export { Recorded, TEST_SECRETS, runProgramUnderMocks } from "../harness/pulumiMocks";
export { ROOT } from "../harness/configs";
export { gatewayHosts, nodeName, scaleModel } from "../harness/scale";
export { registerUnderMocks } from "../harness/serializedProviders";
export { TestSshd, startSshd } from "../harness/sshd";
export { StateBytes, stateBytes } from "../harness/stateSize";
