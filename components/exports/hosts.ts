// The `@ovn-kubernetes-as-code/cluster/hosts` entry: what other packages may use of hosts/.
export { BUNDLE_ROOT, COMMAND_LOG_DIR } from "../hosts/scripts/bundle";
export { centralMemberScript, centralScript } from "../hosts/scripts/centralScript";
export { SCRIPT_BUNDLE_TYPE } from "../hosts/scriptBundle";
export { ipsecCertificatesProvider } from "../hosts/ipsecCertificates";
