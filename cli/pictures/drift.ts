// A live reading laid over the planned picture (pure): every box or node line whose rows differ
// from the plan is marked, with one line per difference naming the column and the live value,
// or the row that is missing. The reading is what `npm run status` compares (components/status).
import { NO_ROW } from "@ovn-kubernetes-as-code/cluster/nb";
import type { Mismatch } from "@ovn-kubernetes-as-code/cluster/nb";
import type { NbDifferences } from "@ovn-kubernetes-as-code/cluster/status";
import { rowKey, type Box, type Drift, type Picture } from "./picture";

const worse = (a: Drift | undefined, b: Drift): Drift => (a === "missing" || b === "missing" ? "missing" : "differs");

const detail = (m: Mismatch) =>
    m.observed === NO_ROW ? `✗ ${m.row}: missing` : `✗ ${m.row} ${m.column}: live ${JSON.stringify(m.observed)}`;

/** A database that could not be read marks every box it holds missing, with the reason. */
export function withDrift(picture: Picture, live: readonly NbDifferences[]): Picture {
    const boxes: Box[] = picture.boxes.map((b) => ({ ...b, lines: b.lines.map((l) => ({ ...l })) }));
    const mark = (key: string, drift: Drift, text: string) => {
        for (const box of boxes) {
            const line = box.lines.find((l) => l.rows.includes(key));
            if (!line && !box.rows.includes(key)) continue;
            if (line) line.drift = worse(line.drift, drift);
            box.drift = worse(box.drift, drift);
            box.lines.push({ text, rows: [], drift });
        }
    };
    for (const nb of live) {
        if (nb.error !== undefined) {
            for (const box of boxes.filter(
                (b) => nb.zone === undefined || b.zone === nb.zone || b.rows.some((k) => k.startsWith(rowKey(nb.zone, ""))),
            ))
                box.drift = "missing";
            boxes[0].lines.push({
                text: `✗ Northbound${nb.zone ? ` of ${nb.zone}` : ""} not read: ${nb.error}`,
                rows: [],
                drift: "missing",
            });
            continue;
        }
        for (const m of nb.differences) mark(rowKey(nb.zone, m.row), m.observed === NO_ROW ? "missing" : "differs", detail(m));
    }
    const count = live.reduce((n, nb) => n + nb.differences.length + (nb.error ? 1 : 0), 0);
    return {
        ...picture,
        title: picture.title.replace("planned topology", "live topology"),
        subtitle: `${picture.subtitle}; ${count === 0 ? "as planned" : `${count} difference${count === 1 ? "" : "s"} from the plan`}`,
        boxes,
    };
}
