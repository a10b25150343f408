// The one table of value patterns. The stack's JSON Schema, the semantic checks, the host script
// generators, the Northbound input checks and the Kubernetes checks all test values against these,
// so whatever validation accepts every later layer accepts too (test/unit/patterns.test.ts).
// Each pattern is strict: nothing a shell, an OVSDB operation or a Kubernetes field could misread.
// Regular expressions are plain values, which the closure serializer reproduces.

const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const PREFIX = "(?:3[0-2]|[12]?[0-9])";
const PREFIX6 = "(?:12[0-8]|1[01][0-9]|[1-9]?[0-9])";
// IPv6 in its hexadecimal forms (RFC 4291 2.2, 1 and 2); no embedded IPv4 and no zone: a cluster's
// addresses are neither v4-mapped nor link-scoped. ipaddr.js parses what passes.
const H16 = "[0-9a-fA-F]{1,4}";
const IPV6 = [
    `(?:${H16}:){7}${H16}`,
    `(?:${H16}:){1,7}:`,
    ...[1, 2, 3, 4, 5, 6].map((k) => `(?:${H16}:){1,${7 - k}}(?::${H16}){${k}}`),
    `(?:${H16}:){1}(?::${H16}){1,6}`,
    `:(?:(?::${H16}){1,7}|:)`,
].join("|");
const PORT = "(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
/** A DNS name: labels of at most 63, at most 253 in all (RFC 1123), no trailing dot. */
const DNS_NAME = `(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*`;
const HOST = `(?:${IPV4}|${IPV6}|${DNS_NAME})`;
/** A host inside a URL or an OVSDB remote: an IPv6 address in brackets (RFC 3986 3.2.2). */
const URL_HOST = `(?:${IPV4}|\\[(?:${IPV6})\\]|${DNS_NAME})`;
const OVSDB_REMOTE = `(?:tcp|ssl):${URL_HOST}:${PORT}`;
const MAPPING_NAME = "[A-Za-z0-9_.-]{1,64}";
const DNS_LABEL_LOWER = "[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?";

export interface Pattern {
    /** What a valid value is, for error messages. */
    what: string;
    /** The anchored source, as JSON Schema's `pattern` takes it. */
    source: string;
    re: RegExp;
}

const p = (what: string, body: string): Pattern => {
    const source = `^(?:${body})$`;
    return { what, source, re: new RegExp(source) };
};

export const PATTERNS = {
    ipv4: p("an IPv4 address (a.b.c.d)", IPV4),
    cidr: p("an IPv4 CIDR (a.b.c.d/len)", `${IPV4}/${PREFIX}`),
    ipv6: p("an IPv6 address (e.g. fd00::1)", IPV6),
    cidr6: p("an IPv6 CIDR (e.g. fd00:10::/48)", `(?:${IPV6})/${PREFIX6}`),
    /** A node's or a range's address of either family (dual-stack settings). */
    ip: p("an IPv4 or IPv6 address", `${IPV4}|${IPV6}`),
    ipCidr: p("an IPv4 or IPv6 CIDR (a.b.c.d/len or fd00::/len)", `${IPV4}/${PREFIX}|(?:${IPV6})/${PREFIX6}`),
    /** A range of one or both families, as the chart writes podNetwork and serviceNetwork: CIDRs joined by a comma. */
    ipCidrs: p(
        "one IPv4 or IPv6 CIDR, or one of each joined by a comma (10.128.0.0/14,fd00:10:128::/48)",
        `(?:${IPV4}/${PREFIX}|(?:${IPV6})/${PREFIX6})(?:,(?:${IPV4}/${PREFIX}|(?:${IPV6})/${PREFIX6}))?`,
    ),
    /** Addresses of one or both families, as the kubelet's --node-ip takes them. */
    ips: p(
        "one IPv4 or IPv6 address, or one of each joined by a comma (10.20.0.11,fd00:10:20::11)",
        `(?:${IPV4}|${IPV6})(?:,(?:${IPV4}|${IPV6}))?`,
    ),
    mac: p("a MAC address (xx:xx:xx:xx:xx:xx)", "[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}"),
    /** Kernel network device names: IFNAMSIZ (15) and dev_valid_name (no '/', ':' or whitespace). */
    ifname: p("a network interface name (1-15 of A-Z a-z 0-9 _ . -, not starting with - or .)", "[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}"),
    /** NB row names (logical switches, routers, ports) and OVS external_ids such as iface-id. */
    ovnName: p(
        "an OVN name: 1-200 of A-Z a-z 0-9 _ . - (no spaces, quotes, brackets or shell characters)",
        "[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}",
    ),
    /** Kubernetes node names as used here (also the namespace and DaemonSet names): a lower-case DNS-1123 label. */
    nodeName: p("a DNS-1123 label (lower-case a-z 0-9 -, at most 63)", DNS_LABEL_LOWER),
    /** Kubernetes object names that may be DNS subdomains (Node names of other clusters). */
    dnsSubdomain: p("a lower-case DNS-1123 subdomain", `(?=.{1,253}$)${DNS_LABEL_LOWER}(?:\\.${DNS_LABEL_LOWER})*`),
    hostname: p("a DNS name (labels of A-Z a-z 0-9 -, no trailing dot)", DNS_NAME),
    /** SSH and webhook hosts: an IPv4 or IPv6 address or a DNS name. */
    host: p("an IPv4 or IPv6 address or DNS name", HOST),
    /** An absolute path on a host, of plain path characters. */
    hostPath: p("an absolute path (A-Z a-z 0-9 . _ - /)", "/[A-Za-z0-9._/-]{1,255}"),
    port: p("a TCP port (1-65535)", PORT),
    sshUser: p("a user name (a-z 0-9 _ . -, starting with a letter or _, at most 32)", "[a-z_][a-z0-9_.-]{0,31}"),
    /** OpenSSH public key line; a SHA256 fingerprint passes only so that validation can refuse it with the ssh-keyscan hint. */
    hostKeyPin: p(
        'an OpenSSH public key line ("ssh-ed25519 AAAA…")',
        "(?:ssh-(?:ed25519|rsa)|ecdsa-sha2-nistp(?:256|384|521)) [A-Za-z0-9+/=]+(?: [A-Za-z0-9@._-]*)?|SHA256:[A-Za-z0-9+/]{43}=?",
    ),
    /** apiServer.url as the stack gives it. */
    apiServerUrl: p("http://host[:port] or https://host[:port] (port 1-65535)", `https?://${URL_HOST}(?::${PORT})?/?`),
    /** The API server as the chassis records it (external_ids:k8s-api-server). */
    k8sApiServer: p("a Kubernetes API server address ([http[s]://]host[:port])", `(?:https?://)?${URL_HOST}(?::${PORT})?`),
    ovsdbRemote: p(
        "an OVSDB remote list (tcp|ssl:host:port[,…]) or the local unix socket of a zone",
        `(?:${OVSDB_REMOTE}(?:,${OVSDB_REMOTE})*|unix:/var/run/ovn/ovn[ns]b_db\\.sock)`,
    ),
    /** Central listeners name an address so that the databases never listen on 0.0.0.0. */
    ovsdbListener: p("an OVSDB listener (ptcp|pssl:port:ipv4)", `p(?:tcp|ssl):${PORT}:${IPV4}`),
    ovnProtocol: p("an OVSDB transport (tcp or ssl)", "tcp|ssl"),
    encapType: p("geneve, stt or vxlan", "geneve|stt|vxlan"),
    /** ovn-encap-type as a chassis holds it: one type, or the stack's with vxlan for VTEP gateways. */
    encapTypes: p("geneve, stt or vxlan, optionally followed by ,vxlan", "(?:geneve|stt|vxlan)(?:,vxlan)?"),
    datapathType: p("system or netdev", "system|netdev"),
    topologyWriter: p("pulumi or ovnkube", "pulumi|ovnkube"),
    osFamily: p("debian or rhel", "debian|rhel"),
    ovnSource: p("packages or image", "packages|image"),
    bridgeMappings: p("bridge mappings (physnet:bridge[,…])", `${MAPPING_NAME}:${MAPPING_NAME}(?:,${MAPPING_NAME}:${MAPPING_NAME})*`),
    packageName: p("a distribution package name", "[a-z0-9][a-z0-9+.-]{0,99}"),
    /** apt `=version` / dnf `-version`: versions start with a digit (an epoch is digits too), so `latest` is no version. */
    packageVersion: p("a package version starting with a digit (e.g. 3.1.0-2 or 2:3.1.0-2.el9)", "[0-9][A-Za-z0-9.+~:_-]{0,99}"),
    repoName: p("a repository name (A-Z a-z 0-9 _ . -, at most 64)", "[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"),
    /** Where a release's CRDs are read instead of upstream: an http(s) or file URL of a directory. */
    crdMirror: p(
        "an http(s):// or file:/// URL of a directory, ending in /",
        "(?:https?://[A-Za-z0-9._~:/%+-]{1,400}|file:///[A-Za-z0-9._~/%+-]{1,400})/",
    ),
    repoUrl: p("an http(s) repository URL without spaces or query", "https?://[A-Za-z0-9._~:/%+-]{1,400}"),
    aptSuite: p("an apt suite (A-Z a-z 0-9 . _ / -, at most 64)", "[A-Za-z0-9][A-Za-z0-9._/-]{0,63}"),
    aptComponents: p("apt components (space separated words)", "[A-Za-z0-9][A-Za-z0-9._-]*(?: [A-Za-z0-9][A-Za-z0-9._-]*){0,15}"),
    /** A container image reference: no whitespace, shell or argument syntax; the registry decides the rest. */
    image: p("an image reference (A-Z a-z 0-9 . _ - / : @)", "[A-Za-z0-9][A-Za-z0-9._/:@-]{0,511}"),
    configMapKey: p("a ConfigMap key (A-Z a-z 0-9 - _ .)", "[-._a-zA-Z0-9]{1,253}"),
    /** Tokens the host makes from /proc/sys/kernel/random/uuid. */
    uuid: p("a UUID", "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    /** OVS system-id: ovn-kubernetes generates it with uuidgen; hostnames are common too. */
    systemId: p("a system-id (1-128 of A-Z a-z 0-9 _ . -, not starting with a separator)", "[A-Za-z0-9][A-Za-z0-9_.-]{0,127}"),
    owner: p("<project>/<stack> (or <org>/<project>/<stack>) of A-Z a-z 0-9 _ . -", "[A-Za-z0-9_.-]{1,100}(?:/[A-Za-z0-9_.-]{1,100}){1,2}"),
    /** The NB database's unix socket on the host, or a TCP listener the host can reach. */
    socket: p(
        "an absolute unix socket path (A-Z a-z 0-9 _ . - /) or tcp:<ipv4>:<port>",
        `/[A-Za-z0-9_.-][A-Za-z0-9_./-]{0,254}|tcp:${IPV4}:${PORT}`,
    ),
} as const;

export type PatternName = keyof typeof PATTERNS;
