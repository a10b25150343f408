// Which OVN database schemas an ovnkube release can talk to. ovnkube's OVSDB client (libovsdb)
// refuses to start when a column of its generated models is missing from the server's schema, so
// the requirement is the schema its models were generated from: go-controller/pkg/nbdb/model.go
// and sbdb/model.go of the release. Pure: the check that reads the central is ./schemaCheck.ts.

export interface SchemaRequirement {
    /** The ovnkube release line, e.g. "1.0". */
    ovnkube: string;
    nb: string;
    sb: string;
    /** The first OVN release whose schemas satisfy it, for the message. */
    ovnRelease: string;
}

/** v1.0.0's models: OVN_Northbound 7.3.0 and OVN_Southbound 20.33.0, first shipped by OVN 24.03. */
export const OVNKUBE_SCHEMA_REQUIREMENTS: readonly SchemaRequirement[] = [{ ovnkube: "1.0", nb: "7.3.0", sb: "20.33.0", ovnRelease: "24.03" }];

/**
 * The release line of an ovnkube image from its tag (`v1.0.0`, `release-1.0`); a tag that names
 * no release (`master`, a digest) is held to the newest requirement known here.
 */
export function requirementFor(image: string): SchemaRequirement & { assumed: boolean } {
    const tag = image.includes("@") ? "" : (image.split("/").pop()!.split(":")[1] ?? "");
    const m = /^(?:v|release-)(\d+)\.(\d+)/.exec(tag);
    const line = m ? `${m[1]}.${m[2]}` : undefined;
    const known = OVNKUBE_SCHEMA_REQUIREMENTS.find((r) => r.ovnkube === line);
    return known ? { ...known, assumed: false } : { ...OVNKUBE_SCHEMA_REQUIREMENTS[OVNKUBE_SCHEMA_REQUIREMENTS.length - 1], assumed: true };
}

/** OVSDB schema versions are x.y.z (RFC 7047 §3.1). */
export function compareVersions(a: string, b: string): number {
    const pa = a.split(".").map(Number);
    const pb = b.split(".").map(Number);
    for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
    return 0;
}

/** What the central holds: the versions served by its running databases, else of its installed schema files. */
export interface CentralSchemas {
    host: string;
    nb: string;
    sb: string;
    /** "served": read from the running ovsdb-servers; "installed": from the schema files they would serve. */
    source: "served" | "installed";
}

/** The refusal, naming both versions and the fix; undefined when the central is new enough. */
export function schemaRefusal(image: string, central: CentralSchemas): string | undefined {
    const req = requirementFor(image);
    const old = [
        compareVersions(central.nb, req.nb) < 0 ? `OVN_Northbound ${central.nb} (needs ${req.nb})` : undefined,
        compareVersions(central.sb, req.sb) < 0 ? `OVN_Southbound ${central.sb} (needs ${req.sb})` : undefined,
    ].filter((x): x is string => x !== undefined);
    if (old.length === 0) return undefined;
    const which = req.assumed ? `${image} (taken as ovnkube ${req.ovnkube}, the newest release this program knows)` : `ovnkube ${req.ovnkube} (${image})`;
    return (
        `${which} cannot use the OVN databases of the central ${central.host}: it ${central.source === "served" ? "serves" : "has installed"} ${old.join(" and ")}. ` +
        `ovnkube ${req.ovnkube} needs the schemas of OVN ${req.ovnRelease} or newer. Fix: install OVN ${req.ovnRelease}+ on the central ` +
        `(packages.repository and packages.ovnVersion), or run the central on a distribution that ships it (Debian 13: OVN 25.03), ` +
        `or set kubernetes.enabled: false to let the project write the topology itself.`
    );
}

/**
 * Reads both versions on the central: from the running databases if they answer, else from the
 * schema files the packages installed (what ovn-ctl upgrades the databases to at start). Prints
 * `<source> <nb> <sb>`, or nothing when OVN is not installed yet. Fixed text: no value enters it.
 */
export const READ_SCHEMAS_SCRIPT = `set -u
served() { ovsdb-client --timeout=5 get-schema-version "unix:/var/run/ovn/ovn$1_db.sock" "$2" 2>/dev/null; }
installed() { for d in /usr/share/ovn /usr/local/share/ovn; do [ -r "$d/ovn-$1.ovsschema" ] && ovsdb-tool schema-version "$d/ovn-$1.ovsschema" && return; done; return 1; }
if nb=$(served nb OVN_Northbound) && sb=$(served sb OVN_Southbound); then echo "served $nb $sb"
elif nb=$(installed nb 2>/dev/null) && sb=$(installed sb 2>/dev/null); then echo "installed $nb $sb"
fi`;

export function parseSchemas(host: string, stdout: string): CentralSchemas | undefined {
    const m = /^(served|installed) (\d+\.\d+\.\d+) (\d+\.\d+\.\d+)$/m.exec(stdout.trim());
    return m ? { host, source: m[1] as CentralSchemas["source"], nb: m[2], sb: m[3] } : undefined;
}
