// Places a picture's boxes and routes its links with ELK's layered algorithm (elkjs): the cluster
// router on top, switches and gateway routers below, external networks last; zones are compound
// nodes laid out with their contents. Box sizes come from their text in the picture's monospace
// font, so the layout never overlaps text.
import ELK from "elkjs/lib/elk.bundled.js";
import type { ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api";
import type { Box, Picture } from "./picture";

/** The font every text of the picture uses, and its advance per character at FONT_SIZE. */
export const FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace";
export const FONT_SIZE = 12;
export const CHAR_WIDTH = 7.3;
export const LINE_HEIGHT = 16;
export const PADDING = 8;
/** The title band of every box. */
export const HEADER = 22;

export interface Placed {
    box: Box;
    x: number;
    y: number;
    width: number;
    height: number;
}

export interface RoutedLink {
    points: { x: number; y: number }[];
    label?: { text: string; x: number; y: number };
}

export interface Layout {
    width: number;
    height: number;
    boxes: Placed[];
    zones: { name: string; x: number; y: number; width: number; height: number }[];
    links: RoutedLink[];
}

export const textWidth = (text: string) => Math.ceil([...text].length * CHAR_WIDTH);

function boxSize(box: Box): { width: number; height: number } {
    const widest = Math.max(textWidth(box.title), ...box.lines.map((l) => textWidth(l.text)));
    return { width: widest + 2 * PADDING, height: HEADER + (box.lines.length ? box.lines.length * LINE_HEIGHT + PADDING : 0) };
}

const OPTIONS = {
    "elk.algorithm": "layered",
    "elk.direction": "DOWN",
    "elk.edgeRouting": "ORTHOGONAL",
    "elk.hierarchyHandling": "INCLUDE_CHILDREN",
    "elk.layered.spacing.nodeNodeBetweenLayers": "40",
    "elk.spacing.nodeNode": "24",
    "elk.spacing.edgeLabel": "4",
    "elk.edgeLabels.inline": "false",
    "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
    // Nodes and zones in the stack's order, left to right.
    "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES",
};

export async function layout(picture: Picture): Promise<Layout> {
    const node = (b: Box): ElkNode => ({ id: b.id, ...boxSize(b) });
    const zoneId = (z: string) => `zone:${z}`;
    const children: ElkNode[] = [
        ...picture.boxes.filter((b) => b.zone === undefined || !picture.zones.includes(b.zone)).map(node),
        ...picture.zones.map((z) => ({
            id: zoneId(z),
            layoutOptions: { "elk.padding": `[top=${HEADER + PADDING},left=${PADDING},bottom=${PADDING},right=${PADDING}]` },
            children: picture.boxes.filter((b) => b.zone === z).map(node),
        })),
    ];
    const edges: ElkExtendedEdge[] = picture.links.map((l, i) => ({
        id: `link:${i}`,
        sources: [l.from],
        targets: [l.to],
        ...(l.label ? { labels: [{ text: l.label, width: textWidth(l.label), height: LINE_HEIGHT }] } : {}),
    }));
    const root: ElkNode = { id: "root", layoutOptions: OPTIONS, children, edges };
    const graph = await new ELK().layout(root);

    // Coordinates of children are relative to their parent: make them absolute.
    const boxes: Placed[] = [];
    const zones: Layout["zones"] = [];
    const offsets = new Map<string, { x: number; y: number }>([["root", { x: 0, y: 0 }]]);
    const byId = new Map(picture.boxes.map((b) => [b.id, b]));
    const visit = (n: ElkNode, ox: number, oy: number) => {
        const x = ox + (n.x ?? 0);
        const y = oy + (n.y ?? 0);
        offsets.set(n.id, { x, y });
        const box = byId.get(n.id);
        if (box) boxes.push({ box, x, y, width: n.width!, height: n.height! });
        else if (n.id.startsWith("zone:")) zones.push({ name: n.id.slice("zone:".length), x, y, width: n.width!, height: n.height! });
        for (const c of n.children ?? []) visit(c, x, y);
    };
    for (const c of graph.children ?? []) visit(c, 0, 0);
    // An edge's coordinates are relative to its container (the root, or the zone holding both ends).
    const containerOf = (e: ElkExtendedEdge) => offsets.get((e as { container?: string }).container ?? "root") ?? { x: 0, y: 0 };
    const allEdges = [...(graph.edges ?? []), ...(graph.children ?? []).flatMap((c) => c.edges ?? [])];
    const links: RoutedLink[] = allEdges.map((e) => {
        const o = containerOf(e);
        const s = e.sections![0];
        const points = [s.startPoint, ...(s.bendPoints ?? []), s.endPoint].map((p) => ({ x: p.x + o.x, y: p.y + o.y }));
        const l = e.labels?.[0];
        return { points, ...(l?.text ? { label: { text: l.text, x: (l.x ?? 0) + o.x, y: (l.y ?? 0) + o.y } } : {}) };
    });
    return { width: graph.width!, height: graph.height!, boxes, zones, links };
}
