// Strict patterns for every model value that reaches a host script. The model is validated
// already; these checks are the last line of defence at the shell boundary, so a value that
// slipped past (or a model built by hand) fails here, naming the field, before anything runs.

const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const PORT = "(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})";
const DNS_NAME = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*";
const HOST = `(?:${IPV4}|${DNS_NAME})`;
const OVSDB_REMOTE = `(?:tcp|ssl):${HOST}:${PORT}`;
const MAPPING_NAME = "[A-Za-z0-9_.-]{1,64}";

export interface Pattern {
    /** What a valid value is, for the error message. */
    what: string;
    re: RegExp;
}

const p = (what: string, source: string): Pattern => ({ what, re: new RegExp(`^(?:${source})$`) });

export const PATTERNS = {
    ipv4: p("an IPv4 address", IPV4),
    cidr: p("an IPv4 CIDR (a.b.c.d/len)", `${IPV4}/(?:3[0-2]|[12]?[0-9])`),
    mac: p("a MAC address (xx:xx:xx:xx:xx:xx)", "[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}"),
    /** Kernel network device names: at most 15 characters, no '/', no whitespace. */
    ifname: p("a network interface name (1-15 of A-Z a-z 0-9 _ . -, not starting with - or .)", "[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}"),
    /** OVN logical port / OVS external_ids values such as iface-id, breth0_node1, k8s-node1. */
    ovnName: p("an OVN name (1-200 of A-Z a-z 0-9 _ . : -, not starting with -)", "[A-Za-z0-9_.][A-Za-z0-9_.:-]{0,199}"),
    nodeName: p("a DNS-1123 label", "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"),
    ovsdbRemote: p("an OVSDB remote list (tcp|ssl:host:port[,…])", `${OVSDB_REMOTE}(?:,${OVSDB_REMOTE})*`),
    /** Central listeners must name an address so the databases never listen on 0.0.0.0. */
    ovsdbListener: p("an OVSDB listener (ptcp|pssl:port:ipv4)", `p(?:tcp|ssl):${PORT}:${IPV4}`),
    encapType: p("geneve, stt or vxlan", "geneve|stt|vxlan"),
    datapathType: p("system or netdev", "system|netdev"),
    topologyWriter: p("pulumi or ovnkube", "pulumi|ovnkube"),
    bridgeMappings: p("bridge mappings (physnet:bridge[,…])", `${MAPPING_NAME}:${MAPPING_NAME}(?:,${MAPPING_NAME}:${MAPPING_NAME})*`),
    k8sApiServer: p("a Kubernetes API server address ([http[s]://]host[:port])", `(?:https?://)?${HOST}(?::${PORT})?`),
    packageName: p("a distribution package name", "[a-z0-9][a-z0-9+.-]{0,99}"),
    packageVersion: p("a package version (e.g. 3.1.0-2 or 2:3.1.0-2.el9)", "[0-9][A-Za-z0-9.+~:_-]{0,99}"),
    repoName: p("a repository name (A-Z a-z 0-9 _ . -)", "[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"),
    repoUrl: p("an http(s) repository URL without spaces or query", "https?://[A-Za-z0-9._~:/%+-]{1,400}"),
    aptSuite: p("an apt suite", "[A-Za-z0-9][A-Za-z0-9._/-]{0,63}"),
    aptComponents: p("apt components (space separated words)", "[A-Za-z0-9][A-Za-z0-9._-]*(?: [A-Za-z0-9][A-Za-z0-9._-]*){0,15}"),
    osFamily: p("debian or rhel", "debian|rhel"),
    /** Tokens the host makes from /proc/sys/kernel/random/uuid. */
    uuid: p("a UUID", "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
} as const;

export type PatternName = keyof typeof PATTERNS;

/** Return `value` if it matches the pattern, else throw an error naming the model field. */
export function checked(field: string, value: unknown, pattern: PatternName): string {
    const { what, re } = PATTERNS[pattern];
    if (typeof value !== "string" || !re.test(value)) {
        throw new Error(`hosts: ${field} must be ${what}, got ${JSON.stringify(value)}`);
    }
    return value;
}

/** Integers (MTU, timeouts) are checked as numbers and then rendered in decimal. */
export function checkedInt(field: string, value: unknown, min: number, max: number): string {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
        throw new Error(`hosts: ${field} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
    }
    return String(value);
}
