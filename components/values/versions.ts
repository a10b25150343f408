// Dotted release and schema versions (OVSDB's x.y.z, RFC 7047 §3.1; OVS's and OVN's x.y.z), compared
// part by part, a missing part counting as 0.
export function compareVersions(a: string, b: string): number {
    const pa = a.split(".").map(Number);
    const pb = b.split(".").map(Number);
    for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
    return 0;
}

/** The `x.y` line of a version or package version (`25.09.0`, `3.5.0-1+b1`, `1:26.03.1-2`), or undefined. */
export const releaseLineOf = (version: string): string | undefined => /^(?:\d+:)?(\d+\.\d+)/.exec(version)?.[1];

/** The `x.y.z` of a package version (`3.5.0-1+b1` → 3.5.0, `1:3.7.1~git` → 3.7.1), or undefined. */
export const upstreamVersionOf = (version: string): string | undefined => /^(?:\d+:)?(\d+\.\d+(?:\.\d+)?)/.exec(version)?.[1];
