// With OVN from the image (ovnkube.ovnSource image), the image's ovn-controller drives the host's
// Open vSwitch: a host whose OVS is older than that OVN runs against (../config/ovnSource
// MINIMUM_OVS) is refused, by the OVS it runs, has installed or would install. Pure: the check that
// reads the host is ./imageOvsCheck.ts.
import { compareVersions, upstreamVersionOf } from "../values";

/** What a script bundle checks on a Kubernetes node with OVN from the image. */
export interface ImageOvsPlan {
    node: string;
    /** The OVN the image carries, e.g. 26.03 or 25.09.0. */
    ovn: string;
    /** The oldest Open vSwitch it runs against. */
    minimumOvs: string;
}

export interface HostOvs {
    /** "running": the version ovs-vswitchd's database records; "installed": the binary's; "candidate": the package manager's offer. */
    source: "running" | "installed" | "candidate";
    version: string;
}

/**
 * Prints `<source> <version>`, or nothing when no OVS is known. Fixed text: no value enters it.
 * The running version is what ovs-ctl records in the database at start (Open_vSwitch ovs_version).
 */
export const READ_OVS_SCRIPT = `set -u
running() { ovs-vsctl --timeout=5 get Open_vSwitch . ovs_version 2>/dev/null | tr -d '"'; }
installed() { ovs-vswitchd --version 2>/dev/null | awk 'NR == 1 { print $NF }'; }
candidate() {
    if command -v apt-cache >/dev/null; then apt-cache policy openvswitch-switch 2>/dev/null | awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }'
    elif command -v dnf >/dev/null; then dnf -q repoquery --latest-limit 1 --qf '%{version}' openvswitch 2>/dev/null; fi
}
if v=$(running) && [ -n "$v" ]; then echo "running $v"
elif v=$(installed) && [ -n "$v" ]; then echo "installed $v"
elif v=$(candidate) && [ -n "$v" ]; then echo "candidate $v"
fi`;

export function parseHostOvs(stdout: string): HostOvs | undefined {
    const m = /^(running|installed|candidate) (\S+)$/m.exec(stdout.trim());
    const version = m ? upstreamVersionOf(m[2]) : undefined;
    return m && version ? { source: m[1] as HostOvs["source"], version } : undefined;
}

const VERB: Record<HostOvs["source"], string> = { running: "runs", installed: "has installed", candidate: "would install" };

/** The refusal, naming both versions and the fix; undefined when the host's OVS is new enough. */
export function imageOvsRefusal(plan: ImageOvsPlan, found: HostOvs): string | undefined {
    if (compareVersions(found.version, plan.minimumOvs) >= 0) return undefined;
    return (
        `${plan.node} ${VERB[found.source]} Open vSwitch ${found.version}, and the OVN ${plan.ovn} of ovnkube.image ` +
        `needs Open vSwitch ${plan.minimumOvs} or newer on the host it drives. Fix: install Open vSwitch ${plan.minimumOvs}+ on ${plan.node} ` +
        `(packages.repository and packages.openvswitchVersion), or run the node on a distribution that ships it (Debian 13: 3.5).`
    );
}
