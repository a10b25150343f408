// What a topology picture shows, before any layout: boxes (routers, switches, external networks,
// or a group of nodes collapsed into one box), the links between them, and the zones that hold
// boxes in the interconnect architecture. Each box and line knows the NB rows it stands for, so a
// live reading can mark the ones that differ from the plan.

export type BoxKind = "router" | "switch" | "gateway" | "external" | "nodes";

/** How a live reading compares with the plan: as planned, a value differs, or the row is missing. */
export type Drift = "differs" | "missing";

export interface Line {
    text: string;
    /** Row keys (`<zone>|<table> <name>`) this line stands for. */
    rows: string[];
    drift?: Drift;
}

export interface Box {
    id: string;
    kind: BoxKind;
    title: string;
    lines: Line[];
    /** Row keys the box itself stands for. */
    rows: string[];
    /** Interconnect: the zone (node name) the box belongs to. */
    zone?: string;
    drift?: Drift;
}

export interface Link {
    from: string;
    to: string;
    label?: string;
}

export interface Picture {
    title: string;
    subtitle: string;
    boxes: Box[];
    links: Link[];
    /** Interconnect: every zone, by name, in the order of the stack's nodes. */
    zones: string[];
}

/** The key a box or line uses for a row of a zone's NB (or the central's, with no zone). */
export const rowKey = (zone: string | undefined, row: string) => `${zone ?? ""}|${row}`;
