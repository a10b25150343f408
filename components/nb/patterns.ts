// Strict patterns for every value that reaches an OVSDB operation or the SSH layer. The model is
// validated already; `check` applies these again because a dynamic resource can be given any
// object, and a value with a quote, space, bracket or shell character has no business in NB.
// Regular expressions are plain values the closure serializer reproduces.

const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const PREFIX = "(?:3[0-2]|[12]?[0-9])";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";

export interface Rule {
    /** What a valid value is, for the failure reason. */
    what: string;
    re: RegExp;
}

const rule = (what: string, source: string): Rule => ({ what, re: new RegExp(`^(?:${source})$`) });

export const RULES = {
    /** NB row names: logical switches, routers and ports (ovn-kubernetes uses letters, digits, _ . -). */
    ovnName: rule("an OVN name: 1-200 of A-Z a-z 0-9 _ . - (no spaces, quotes, brackets or shell characters)", "[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}"),
    nodeName: rule("a Kubernetes node name (lower-case DNS-1123 label)", "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"),
    ipv4: rule("an IPv4 address (a.b.c.d)", IPV4),
    cidr: rule("an IPv4 address with prefix length (a.b.c.d/len)", `${IPV4}/${PREFIX}`),
    mac: rule("a MAC address (xx:xx:xx:xx:xx:xx)", "[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}"),
    /** OVS system-id: ovn-kubernetes generates it with uuidgen; hostnames are common too. */
    systemId: rule("a system-id (1-128 of A-Z a-z 0-9 _ . -, not starting with a separator)", "[A-Za-z0-9][A-Za-z0-9_.-]{0,127}"),
    owner: rule("<project>/<stack> (or <org>/<project>/<stack>) of A-Z a-z 0-9 _ . -", "[A-Za-z0-9_.-]{1,100}(?:/[A-Za-z0-9_.-]{1,100}){1,2}"),
    sshHost: rule("an IPv4 address or DNS name", `${IPV4}|${LABEL}(?:\\.${LABEL})*`),
    sshUser: rule("a user name (a-z 0-9 _ . -, starting with a letter or _)", "[a-z_][a-z0-9_.-]{0,31}"),
    /** The NB database's unix socket on the host, or a TCP listener the host can reach. */
    socket: rule("an absolute unix socket path (A-Z a-z 0-9 _ . - /) or tcp:<ipv4>:<port>", `/[A-Za-z0-9_.-][A-Za-z0-9_./-]{0,254}|tcp:${IPV4}:[0-9]{1,5}`),
} as const;

export type RuleName = keyof typeof RULES;
