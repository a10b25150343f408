// What a host looks like to the destroy contract (README "What destroy leaves"): OVS bridges and
// their ports, addresses, routes (also of the table ovnkube-node routes services through), routing
// rules of both families, sysctls, nftables tables, iptables rules, the OVN processes, and the files under
// /etc/openvswitch and /etc/ovn. Read inside the host; compared before the first up and after destroy.
import { OVNKUBE_ITP_RULE } from "../../../components/hosts/scripts/ovnkubeNode";
import { hostExec, type LocalCluster } from "../../../lab/localcluster";

export interface HostSnapshot {
    bridges: string[];
    addresses: string[];
    routes: string[];
    /** Routing policy rules, and the sysctls ovnkube-node sets host-wide. */
    rules: string[];
    sysctls: string[];
    nftTables: string[];
    /** The iptables rules (not chains or policies) of every table the host has. */
    iptablesRules: string[];
    ovnProcesses: string[];
    files: string[];
}

/**
 * What destroy leaves by design: the distribution's packages, Open vSwitch running with its
 * database (it may carry the host's own traffic) and its userspace datapath device, and the
 * chassis' system-id (a host keeps its identity).
 */
export const LEFT_BY_DESIGN = {
    interfaces: ["ovs-netdev"],
    files: ["/etc/openvswitch/conf.db", "/etc/openvswitch/.conf.db.~lock~", "/etc/openvswitch/system-id.conf"],
} as const;

const SCRIPT = `set -u
section() { printf '@@%s\\n' "$1"; }
section bridges
if command -v ovs-vsctl >/dev/null && ovs-vsctl --timeout=5 show >/dev/null 2>&1; then
    for b in $(ovs-vsctl list-br); do echo "$b: $(ovs-vsctl list-ports "$b" | sort | tr '\\n' ' ')"; done
fi
section addresses
ip -o addr show | awk '{ print $2, $3, $4 }' | sed 's/@[^ ]*//'
section routes
ip -4 route show; ip -6 route show
ip -4 route show table ${OVNKUBE_ITP_RULE.table} | sed 's/^/table ${OVNKUBE_ITP_RULE.table}: /'; ip -6 route show table ${OVNKUBE_ITP_RULE.table} | sed 's/^/table ${OVNKUBE_ITP_RULE.table}: /'
section rules
ip -4 rule show; ip -6 rule show | sed 's/^/v6 /'
section sysctls
for key in net/ipv4/conf/all/src_valid_mark net/ipv4/conf/all/forwarding net/ipv6/conf/all/forwarding; do echo "$key $(cat /proc/sys/$key)"; done
section nftTables
nft list tables 2>/dev/null || true
section iptablesRules
if command -v iptables-save >/dev/null; then iptables-save 2>/dev/null | grep '^-A' || true; fi
if command -v ip6tables-save >/dev/null; then ip6tables-save 2>/dev/null | grep '^-A' | sed 's/^/v6 /' || true; fi
section ovnProcesses
# This machine's processes are all in /proc; the host's are those in its network namespace. One
# grep over every command line first: a readlink per process costs a process each.
self=$(readlink /proc/self/ns/net)
for f in $(grep -l -a -E '[o]vn-northd|[o]vn-controller|[o]vnnb_db|[o]vnsb_db' /proc/[0-9]*/cmdline 2>/dev/null); do
    p=\${f%/cmdline}
    [ "$(readlink "$p/ns/net" 2>/dev/null)" = "$self" ] || continue
    args=$( { tr '\\0' ' ' <"$p/cmdline"; } 2>/dev/null) || continue
    case "$args" in *ovn-northd*|*ovn-controller*|*ovnnb_db*|*ovnsb_db*) echo "$args" ;; esac
done
section files
find /etc/openvswitch /etc/ovn -type f 2>/dev/null || true
`;

export async function snapshotHost(cluster: LocalCluster, host: string): Promise<HostSnapshot> {
    const r = await hostExec(cluster, host, ["bash", "-c", SCRIPT]);
    if (r.code !== 0) throw new Error(`${host}: snapshot failed: ${r.stderr.trim()}`);
    const out: Record<string, string[]> = {};
    let section = "";
    for (const line of r.stdout.split("\n")) {
        if (line.startsWith("@@")) out[(section = line.slice(2))] = [];
        else if (line.trim() && section) out[section].push(line.trim());
    }
    const sorted = (k: string) => [...(out[k] ?? [])].sort();
    return {
        bridges: sorted("bridges"),
        addresses: sorted("addresses").filter((a) => !LEFT_BY_DESIGN.interfaces.some((i) => a.startsWith(`${i} `))),
        routes: sorted("routes"),
        rules: sorted("rules"),
        sysctls: sorted("sysctls"),
        nftTables: sorted("nftTables"),
        iptablesRules: sorted("iptablesRules"),
        ovnProcesses: sorted("ovnProcesses"),
        files: sorted("files").filter((f) => !(LEFT_BY_DESIGN.files as readonly string[]).includes(f)),
    };
}
