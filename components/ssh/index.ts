// The SSH layer's public surface: pooled connections, remote commands, OVSDB over SSH.
export { exec, type ExecOptions, type ExecResult } from "./exec";
export { SshChannelError, SshError, SshHostKeyError, SshUnreachableError } from "./errors";
export { pinFingerprint, sshFingerprint } from "./hostKey";
export { NB_SOCKET, openOvsdbOverSsh, ovsdbRemote, type OvsdbEndpoint } from "./ovsdbChannel";
export { closeOvsdbPool, northbound, PooledOvsdbClient } from "./ovsdbPool";
export { acquireSsh, closeSshPool, sshAddress, sshPoolStats, type SshLease } from "./pool";
export { RemoteOvsdbClient } from "./remoteOvsdbClient";
export { shellCommand, shellQuote } from "./shellQuote";
export type { SshTarget } from "../model/sshTarget";
