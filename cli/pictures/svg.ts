// A laid-out picture as an SVG document (pure): boxes coloured by kind with their title band and
// lines, links with their port labels, zones as dashed frames, a legend; what differs from the
// plan in orange (a value) or red (a missing row). Plain SVG 1.1 text elements only, so every
// renderer (browsers, rsvg-convert) draws it alike.
import type { Drift } from "./picture";
import { FONT, FONT_SIZE, HEADER, LINE_HEIGHT, PADDING, type Layout } from "./layout";

const KIND_COLOURS = {
    router: { fill: "#e8f0fe", band: "#1a56db", label: "logical router" },
    switch: { fill: "#e6f4ea", band: "#137333", label: "logical switch" },
    gateway: { fill: "#e0f2f1", band: "#00796b", label: "gateway router" },
    external: { fill: "#f1f3f4", band: "#5f6368", label: "external network" },
    nodes: { fill: "#f3e8fd", band: "#7b1fa2", label: "nodes (collapsed)" },
} as const;

const DRIFT_COLOURS: Record<Drift, { colour: string; label: string }> = {
    differs: { colour: "#e8710a", label: "differs from the plan" },
    missing: { colour: "#d93025", label: "missing from the Northbound database" },
};

const MARGIN = 16;
const TITLE = 48;
const LEGEND = 28;

export const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const n = (v: number) => Math.round(v * 10) / 10;

function text(x: number, y: number, content: string, attrs = ""): string {
    return `<text x="${n(x)}" y="${n(y)}"${attrs ? ` ${attrs}` : ""}>${escapeXml(content)}</text>`;
}

export function renderSvg(title: string, subtitle: string, layout: Layout): string {
    const width = Math.max(layout.width, 640) + 2 * MARGIN;
    const height = layout.height + TITLE + LEGEND + 2 * MARGIN;
    const at = (x: number, y: number) => ({ x: x + MARGIN, y: y + MARGIN + TITLE });
    const out: string[] = [];
    out.push(`<?xml version="1.0" encoding="UTF-8"?>`);
    out.push(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}" font-family="${FONT}" font-size="${FONT_SIZE}" xml:space="preserve">`,
    );
    out.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
    out.push(text(MARGIN, MARGIN + 16, title, `font-size="16" font-weight="bold"`));
    out.push(text(MARGIN, MARGIN + 34, subtitle, `fill="#3c4043"`));
    for (const z of layout.zones) {
        const p = at(z.x, z.y);
        out.push(
            `<g class="zone"><rect x="${n(p.x)}" y="${n(p.y)}" width="${n(z.width)}" height="${n(z.height)}" rx="6" fill="none" stroke="#80868b" stroke-dasharray="6 4"/>`,
        );
        out.push(text(p.x + PADDING, p.y + 16, `zone ${z.name}`, `fill="#5f6368" font-style="italic"`) + "</g>");
    }
    for (const l of layout.links) {
        const points = l.points
            .map((pt) => at(pt.x, pt.y))
            .map((pt) => `${n(pt.x)},${n(pt.y)}`)
            .join(" ");
        out.push(`<polyline points="${points}" fill="none" stroke="#5f6368" stroke-width="1.5"/>`);
        if (l.label) {
            const p = at(l.label.x, l.label.y);
            out.push(text(p.x, p.y + LINE_HEIGHT - 4, l.label.text, `fill="#5f6368" font-size="11"`));
        }
    }
    for (const b of layout.boxes) {
        const p = at(b.x, b.y);
        const colours = KIND_COLOURS[b.box.kind];
        const stroke = b.box.drift ? DRIFT_COLOURS[b.box.drift].colour : colours.band;
        out.push(`<g class="box ${b.box.kind}${b.box.drift ? ` ${b.box.drift}` : ""}">`);
        out.push(
            `<rect x="${n(p.x)}" y="${n(p.y)}" width="${n(b.width)}" height="${n(b.height)}" rx="4" fill="${colours.fill}" stroke="${stroke}" stroke-width="${b.box.drift ? 3 : 1.5}"/>`,
        );
        out.push(`<rect x="${n(p.x)}" y="${n(p.y)}" width="${n(b.width)}" height="${HEADER}" rx="4" fill="${stroke}"/>`);
        out.push(text(p.x + PADDING, p.y + HEADER - 7, b.box.title, `fill="#ffffff" font-weight="bold"`));
        b.box.lines.forEach((line, i) => {
            const fill = line.drift ? DRIFT_COLOURS[line.drift].colour : "#202124";
            out.push(
                text(
                    p.x + PADDING,
                    p.y + HEADER + (i + 1) * LINE_HEIGHT - 2,
                    line.text,
                    `fill="${fill}"${line.drift ? ` font-weight="bold"` : ""}`,
                ),
            );
        });
        out.push(`</g>`);
    }
    // Legend: the kinds drawn, then the drift colours when something differs.
    const kinds = [...new Set(layout.boxes.map((b) => b.box.kind))].map((k) => ({
        colour: KIND_COLOURS[k].band,
        label: KIND_COLOURS[k].label,
    }));
    const drifts = [...new Set(layout.boxes.flatMap((b) => (b.box.drift ? [b.box.drift] : [])))].map((d) => DRIFT_COLOURS[d]);
    let x = MARGIN;
    const y = height - MARGIN - 10;
    for (const item of [...kinds, ...drifts]) {
        out.push(`<rect x="${n(x)}" y="${n(y - 10)}" width="12" height="12" fill="${item.colour}"/>`);
        out.push(text(x + 16, y, item.label, `fill="#3c4043"`));
        x += 16 + item.label.length * 7.3 + 20;
    }
    out.push(`</svg>`);
    return out.join("\n") + "\n";
}
