// What every topology picture must be: well-formed XML whose root is an <svg> of a stated size,
// drawn by a real renderer (rsvg-convert, from librsvg2-bin) into a PNG of that size, and its
// texts, for tests to look for names in.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { XMLParser, XMLValidator } from "fast-xml-parser";

export interface CheckedSvg {
    texts: string[];
    /** The `class` of every box group, e.g. `box switch differs`, by its title. */
    boxes: Map<string, string>;
    /** Text fill colours by text content. */
    fills: Map<string, string>;
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG signature");
    return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export function checkSvg(svg: string): CheckedSvg {
    assert.equal(XMLValidator.validate(svg), true, "well-formed XML");
    const doc = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: "",
        isArray: (name) => ["text", "g", "rect", "polyline"].includes(name),
        trimValues: false,
    }).parse(svg);
    const root = doc.svg;
    assert.ok(root, "the root element is <svg>");
    const width = Math.ceil(Number(root.width));
    const height = Math.ceil(Number(root.height));
    const r = spawnSync("rsvg-convert", ["--format", "png"], { input: svg, maxBuffer: 64 * 1024 * 1024 });
    assert.equal(r.status, 0, `rsvg-convert: ${r.stderr}`);
    assert.deepEqual(pngSize(r.stdout), { width, height });
    const texts: string[] = [];
    const fills = new Map<string, string>();
    const boxes = new Map<string, string>();
    const collect = (node: any) => {
        for (const t of node.text ?? []) {
            const content = String(t["#text"] ?? "");
            texts.push(content);
            fills.set(content, t.fill);
        }
    };
    collect(root);
    for (const g of root.g ?? []) {
        collect(g);
        if (String(g.class).startsWith("box ")) boxes.set(String(g.text[0]["#text"]), g.class);
    }
    return { texts, boxes, fills };
}
