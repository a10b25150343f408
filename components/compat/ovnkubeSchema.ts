// Which OVN database schemas an ovnkube release can talk to. ovnkube's OVSDB client (libovsdb)
// refuses to start when a column of its generated models is missing from the server's schema, so
// the requirement is the schema its models were generated from (../config/releases). Pure: the
// check that reads the databases' host is ./schemaCheck.ts.
import { releaseOf, type OvnkubeVersion } from "../config/releases";
import { compareVersions, releaseLineOf } from "../values";

export { compareVersions };

/** What the host holds: the versions served by its running databases, else of its installed schema files, else of the OVN its package manager would install. */
export interface CentralSchemas {
    host: string;
    nb: string;
    sb: string;
    /**
     * "served": read from the running ovsdb-servers; "installed": from the schema files they would
     * serve; "candidate": the schemas of the OVN release the package manager would install (a host
     * whose packages step has not run yet), from OVN_RELEASE_SCHEMAS.
     */
    source: "served" | "installed" | "candidate";
    /** With "candidate": the package version the package manager offers. */
    package?: string;
}

/**
 * The schemas OVN releases serve, read from the releases' ovn-nb.ovsschema and ovn-sb.ovsschema
 * (24.03 in Debian 13's predecessor line, 25.03 in Debian 13, 26.03 in Debian unstable): what a
 * host that has not installed OVN yet will serve once its packages step ran.
 */
export const OVN_RELEASE_SCHEMAS: Readonly<Record<string, { nb: string; sb: string }>> = {
    "24.03": { nb: "7.3.0", sb: "20.33.0" },
    "25.03": { nb: "7.11.0", sb: "20.41.0" },
    "26.03": { nb: "7.18.0", sb: "21.8.0" },
};

const SOURCE_VERB: Record<CentralSchemas["source"], string> = { served: "serves", installed: "has installed", candidate: "would install" };

/** The refusal, naming both versions and the fix; undefined when the databases are new enough. */
export function schemaRefusal(version: OvnkubeVersion, central: CentralSchemas): string | undefined {
    const req = releaseOf(version);
    const old = [
        compareVersions(central.nb, req.nbSchema) < 0 ? `OVN_Northbound ${central.nb} (needs ${req.nbSchema})` : undefined,
        compareVersions(central.sb, req.sbSchema) < 0 ? `OVN_Southbound ${central.sb} (needs ${req.sbSchema})` : undefined,
    ].filter((x): x is string => x !== undefined);
    if (old.length === 0) return undefined;
    return (
        `ovn-kubernetes ${version} cannot use the OVN databases of ${central.host}: it ${SOURCE_VERB[central.source]}${central.package ? ` (ovn-central ${central.package})` : ""} ${old.join(" and ")}. ` +
        `ovnkube ${version} needs the schemas of OVN ${req.ovnRelease} or newer. Fix: install OVN ${req.ovnRelease}+ on ${central.host} ` +
        `(packages.repository and packages.ovnVersion), or run it on a distribution that ships it (Debian unstable: OVN 26.03), ` +
        `or set kubernetes.enabled: false to let the project write the topology itself.`
    );
}

/**
 * Reads both versions on the host: from the running databases if they answer, else from the
 * schema files the packages installed (what ovn-ctl upgrades the databases to at start), else the
 * version of ovn-central that apt or dnf would install. Prints `<source> <nb> <sb>` or
 * `candidate <package version>`, or nothing when none is known. Fixed text: no value enters it.
 */
export const READ_SCHEMAS_SCRIPT = `set -u
served() { ovsdb-client --timeout=5 get-schema-version "unix:/var/run/ovn/ovn$1_db.sock" "$2" 2>/dev/null; }
installed() { for d in /usr/share/ovn /usr/local/share/ovn; do [ -r "$d/ovn-$1.ovsschema" ] && ovsdb-tool schema-version "$d/ovn-$1.ovsschema" && return; done; return 1; }
candidate() {
    if command -v apt-cache >/dev/null; then apt-cache policy ovn-central 2>/dev/null | awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }'
    elif command -v dnf >/dev/null; then dnf -q repoquery --latest-limit 1 --qf '%{version}' ovn 2>/dev/null; fi
}
if nb=$(served nb OVN_Northbound) && sb=$(served sb OVN_Southbound); then echo "served $nb $sb"
elif nb=$(installed nb 2>/dev/null) && sb=$(installed sb 2>/dev/null); then echo "installed $nb $sb"
elif v=$(candidate) && [ -n "$v" ]; then echo "candidate $v"
fi`;

/** The OVN release (`25.03`) of a package version (`25.03.0-1`, `1:25.03.2-3+b1`). */
export const ovnReleaseOf = releaseLineOf;

export function parseSchemas(host: string, stdout: string): CentralSchemas | undefined {
    const m = /^(served|installed) (\d+\.\d+\.\d+) (\d+\.\d+\.\d+)$/m.exec(stdout.trim());
    if (m) return { host, source: m[1] as CentralSchemas["source"], nb: m[2], sb: m[3] };
    // A package version of a release whose schemas are known; any other decides only once installed.
    const c = /^candidate (\S+)$/m.exec(stdout.trim());
    const known = c ? OVN_RELEASE_SCHEMAS[ovnReleaseOf(c[1]) ?? ""] : undefined;
    return c && known ? { host, source: "candidate", package: c[1], ...known } : undefined;
}
