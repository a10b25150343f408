// A pinned package version names the distribution family that built it: Debian's and Ubuntu's
// revisions carry `+debNNuN`, `~bpoNN`, `~debNN` or `ubuntu`, Fedora's and RHEL's releases a
// `.fcNN`, `.elN` or `.amznN` dist tag. One pin applies to every host's package step (apt
// `name=version`, dnf `name-version`), so a pin of one family on a node of the other makes that
// host's package step fail half-way through an up, after the other hosts installed theirs.
import { OsFamily, type StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

const FAMILY_MARKS: ReadonlyArray<[OsFamily, RegExp]> = [
    [OsFamily.debian, /\+deb\d+u\d+|~deb\d+|~bpo\d+|ubuntu/],
    [OsFamily.rhel, /\.(?:el|fc|amzn)\d+/],
];

/** The family whose builds carry the version's distribution mark, and the mark; undefined for a bare upstream version. */
export function pinFamily(version: string): { family: OsFamily; mark: string } | undefined {
    for (const [family, mark] of FAMILY_MARKS) {
        const m = mark.exec(version);
        if (m) return { family, mark: m[0] };
    }
    return undefined;
}

const PINS = ["openvswitchVersion", "ovnVersion"] as const;

/** Relation: a pin marked for one distribution family is on no node of the other (`nodes[].os`, default debian). */
export function packagePinProblems(cfg: StackConfigInput, add: Add): void {
    if (cfg.packages?.skip) return;
    for (const key of PINS) {
        const version = cfg.packages?.[key];
        const pinned = version === undefined ? undefined : pinFamily(version);
        if (!pinned) continue;
        const others = cfg.nodes.flatMap((n, i) => ((n.os ?? OsFamily.debian) === pinned.family ? [] : [`nodes[${i}] (${n.name})`]));
        if (others.length === 0) continue;
        add(
            `packages.${key}`,
            `"${version}" is a ${pinned.family}-family build (${pinned.mark}), but ${others.join(", ")} ${others.length === 1 ? "has" : "have"} os: ${pinned.family === OsFamily.debian ? OsFamily.rhel : OsFamily.debian}, whose package manager cannot install it; pin a version built for the nodes' family, or correct their os`,
        );
    }
}
