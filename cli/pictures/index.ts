// Topology pictures: the planned topology of a stack, or its live one with what differs from the
// plan marked, as an SVG document. Pure apart from the layout engine's work: model (and live
// differences) in, SVG text out; the CLIs (tools/render.ts, tools/status.ts) write it.
import type { ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import type { NbDifferences } from "@ovn-kubernetes-as-code/cluster/status";
import { withDrift } from "./drift";
import { layout } from "./layout";
import { plannedPicture } from "./planned";
import { renderSvg } from "./svg";

export async function plannedTopologySvg(model: ClusterModel, stack: string): Promise<string> {
    const picture = plannedPicture(model, stack);
    return renderSvg(picture.title, picture.subtitle, await layout(picture));
}

export async function liveTopologySvg(model: ClusterModel, stack: string, live: readonly NbDifferences[]): Promise<string> {
    const picture = withDrift(plannedPicture(model, stack), live);
    return renderSvg(picture.title, picture.subtitle, await layout(picture));
}
