// The `@ovn-kubernetes-as-code/cluster/ssh` entry: what other packages may use of ssh/.
export { hostKeyAlgorithms, hostKeyRefusal, parseHostKeyLine, sshFingerprint } from "../ssh/hostKey";
export { openOvsdbOverSsh } from "../ssh/ovsdbChannel";
export { closeOvsdbPool } from "../ssh/ovsdbPool";
export { closeSshPool } from "../ssh/pool";
export { shellCommand, shellQuote } from "../ssh/shellQuote";
export { ssh2PrivateKey } from "../ssh/commandKey";
export { collect as collectExec, type ExecResult } from "../ssh/exec";
