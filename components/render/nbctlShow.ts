// A text view of desired NB rows shaped like `ovn-nbctl show`: switches with their ports, routers
// with their ports, NAT and static routes. Rows are linked by their parent references, so the
// view shows exactly what the row builders produce.
import { refId, type RowSpec } from "../nb/core/rows";
import { TAG_GROUP } from "../nb/core/tags";
import type { NbGroup } from "./northbound";

const str = (v: string | string[] | undefined) => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const quoted = (v: string | string[] | undefined) =>
    `[${str(v)
        .map((x) => JSON.stringify(x))
        .join(", ")}]`;

interface Placed {
    id: string;
    spec: RowSpec;
}

export function nbctlShow(groups: NbGroup[]): string {
    const rows: Placed[] = groups.flatMap((g) => g.rows.map((spec) => ({ id: refId({ group: groupOf(spec), key: spec.key }), spec })));
    const children = (parent: Placed, table: string) =>
        rows.filter((r) => r.spec.table === table && r.spec.parent && refId(r.spec.parent) === parent.id);
    const lines: string[] = [];
    for (const sw of rows.filter((r) => r.spec.table === "Logical_Switch")) {
        lines.push(`switch (${sw.spec.columns.name})`);
        for (const p of children(sw, "Logical_Switch_Port")) {
            lines.push(`    port ${p.spec.columns.name}`);
            if (p.spec.columns.type) lines.push(`        type: ${p.spec.columns.type}`);
            if (p.spec.columns.addresses) lines.push(`        addresses: ${quoted(p.spec.columns.addresses)}`);
            const routerPort = p.spec.maps.options?.["router-port"];
            if (routerPort) lines.push(`        router-port: ${routerPort}`);
            const network = p.spec.maps.options?.network_name;
            if (network) lines.push(`        network_name: ${network}`);
        }
    }
    for (const lr of rows.filter((r) => r.spec.table === "Logical_Router")) {
        lines.push(`router (${lr.spec.columns.name})`);
        for (const p of children(lr, "Logical_Router_Port")) {
            lines.push(`    port ${p.spec.columns.name}`);
            lines.push(`        mac: ${JSON.stringify(p.spec.columns.mac)}`);
            lines.push(`        networks: ${quoted(p.spec.columns.networks)}`);
        }
        for (const n of children(lr, "NAT")) {
            lines.push(`    nat`);
            lines.push(`        external ip: ${JSON.stringify(n.spec.columns.external_ip)}`);
            lines.push(`        logical ip: ${JSON.stringify(n.spec.columns.logical_ip)}`);
            lines.push(`        type: ${JSON.stringify(n.spec.columns.type)}`);
        }
        for (const r of children(lr, "Logical_Router_Static_Route")) {
            const policy = str(r.spec.columns.policy)[0];
            const out = str(r.spec.columns.output_port)[0];
            lines.push(
                `    route ${r.spec.columns.ip_prefix} via ${r.spec.columns.nexthop}${policy ? ` (${policy})` : ""}${out ? ` dev ${out}` : ""}`,
            );
        }
        const chassis = lr.spec.maps.options?.chassis;
        if (chassis) lines.push(`    chassis: ${chassis}`);
    }
    return lines.join("\n") + "\n";
}

function groupOf(spec: RowSpec): string {
    return spec.maps.external_ids[TAG_GROUP];
}
