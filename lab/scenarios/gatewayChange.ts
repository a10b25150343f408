// The gateway scenario on a live Pulumi-mode cluster of 4 Debian 13 hosts (their own roots, so a
// test can reboot one, test/e2e/support/gatewayReboot.ts): node1 (central, master) and node2
// carry the pods that ping throughout; the shared gateway starts on node4, moves to node3, node4
// is added back as a second gateway (ECMP), then node3's is removed. Shared by
// test/e2e/gatewayMove.test.ts and bench/changes/gateway-move.ts.
import { localSharedGateway, startPod, type LocalPod } from "../localcluster";
import { apply } from "../offline/api";
import { NB_SOCKET } from "@ovn-kubernetes-as-code/cluster/model";
import { bringUpPulumiLab, type PulumiLab } from "./pulumiLab";
import { editStack, hostOut, PROJECT_KEY, upUnderTraffic, type ChangeOutcome } from "./liveChange";

/** Nodes the gateway changes never touch, and where the pods run. */
export const UNTOUCHED = ["node1", "node2"] as const;

/** An IPv6 address on each gateway candidate's NIC, so the snapshots prove IPv6 follows the NIC. */
export const NIC_V6: Record<string, string> = { node3: "2001:db8:3::13/64", node4: "2001:db8:3::14/64" };

export interface GatewayLab extends PulumiLab {
    pods: [LocalPod, LocalPod];
    central: string;
}

export async function bringUpGatewayLab(id: string): Promise<GatewayLab> {
    const lab = await bringUpPulumiLab(id, 4, "debian13");
    try {
        for (const [node, cidr] of Object.entries(NIC_V6))
            await hostOut(lab.cluster, node, ["ip", "-6", "addr", "add", cidr, "dev", "eth0", "nodad"]);
        const r = await apply(lab.options);
        if (!r.ok) throw new Error(`first apply: ${r.error}`);
        const pods: [LocalPod, LocalPod] = [
            await startPod(lab.cluster, lab.model, UNTOUCHED[0], "live", "pod-a", 10),
            await startPod(lab.cluster, lab.model, UNTOUCHED[1], "live", "pod-b", 11),
        ];
        return { ...lab, pods, central: lab.model.hosts.find((h) => h.isCentral)!.name };
    } catch (e) {
        await lab.close();
        throw e;
    }
}

/** Makes exactly `nodes` shared gateways in the stack file. */
export function setGateways(lab: GatewayLab, nodes: string[]): void {
    editStack(lab, (config) => {
        for (const n of config[PROJECT_KEY("nodes")] as Array<Record<string, any>>) {
            const roles = (n.roles as string[]).filter((r) => r !== "gateway");
            if (nodes.includes(n.name)) {
                n.roles = [...roles, "gateway"];
                n.gateway = localSharedGateway(
                    lab.cluster,
                    lab.cluster.hosts.find((h) => h.name === n.name)!,
                );
            } else {
                n.roles = roles;
                delete n.gateway;
            }
        }
    });
}

/** The cluster router's default routes and the join addresses of the gateway routers, as NB has them now. */
export interface DefaultRoutes {
    /** Next hops of 0.0.0.0/0 on ovn_cluster_router. */
    nexthops: string[];
    /** Join-side addresses of every gateway router (rtoj-GR_<node>). */
    joinIps: string[];
}

/**
 * Reads both in ONE OVSDB transaction, so a sample is a consistent snapshot: two separate reads
 * would straddle the atomic delete of a gateway router group (its join port and its ECMP member go
 * in one transaction) and report a route to a port already gone.
 */
export async function defaultRoutes(lab: GatewayLab): Promise<DefaultRoutes> {
    const ops = [
        "OVN_Northbound",
        { op: "select", table: "Logical_Router", where: [["name", "==", lab.model.clusterRouter.name]], columns: ["static_routes"] },
        { op: "select", table: "Logical_Router_Static_Route", where: [], columns: ["_uuid", "ip_prefix", "nexthop"] },
        { op: "select", table: "Logical_Router_Port", where: [], columns: ["name", "networks"] },
    ];
    const [routers, routes, ports] = JSON.parse(
        await hostOut(lab.cluster, lab.central, ["ovsdb-client", "--timeout=30", "query", `unix:${NB_SOCKET}`, JSON.stringify(ops)]),
    ) as Array<{ rows: Array<Record<string, any>> }>;
    const set = (v: any): any[] => (Array.isArray(v) && v[0] === "set" ? v[1] : [v]);
    const onCluster = new Set(routers.rows.flatMap((r) => set(r.static_routes).map((u: [string, string]) => u[1])));
    const nexthops = routes.rows
        .filter((r) => onCluster.has(r._uuid[1]) && r.ip_prefix === "0.0.0.0/0")
        .map((r) => r.nexthop as string)
        .sort();
    const joinIps = ports.rows
        .filter((p) => (p.name as string).startsWith("rtoj-GR_"))
        .flatMap((p) => set(p.networks) as string[])
        .map((cidr) => cidr.split("/")[0])
        .sort();
    return { nexthops, joinIps };
}

/** A sample is valid when at least one default route exists and every next hop is an existing gateway router's join address. */
export const routesValid = (s: DefaultRoutes): boolean => s.nexthops.length > 0 && s.nexthops.every((h) => s.joinIps.includes(h));

/** Changes the gateways to `nodes` and runs `up` under traffic between the untouched pods, sampling the default routes. */
export async function changeGateways(lab: GatewayLab, nodes: string[]): Promise<ChangeOutcome<DefaultRoutes>> {
    setGateways(lab, nodes);
    return upUnderTraffic(
        lab,
        [
            [lab.pods[0], lab.pods[1]],
            [lab.pods[1], lab.pods[0]],
        ],
        () => defaultRoutes(lab),
    );
}

/** The Southbound's view: chassis names, and per l3gateway port binding the chassis it is pinned to. */
export async function sbGateways(lab: GatewayLab): Promise<{ chassis: string[]; l3gateway: Record<string, string> }> {
    const sb = (args: string[]) => hostOut(lab.cluster, lab.central, ["ovn-sbctl", "--format=json", ...args]);
    const chassis = (JSON.parse(await sb(["--columns=name", "list", "Chassis"])) as { data: string[][] }).data.map(([n]) => n).sort();
    const bindings = JSON.parse(await sb(["--columns=logical_port,type,options", "list", "Port_Binding"])) as {
        data: Array<[string, string, ["map", Array<[string, string]>]]>;
    };
    const l3gateway: Record<string, string> = {};
    for (const [port, type, options] of bindings.data) {
        if (type !== "l3gateway") continue;
        l3gateway[port] = Object.fromEntries(options[1])["l3gateway-chassis"] ?? "";
    }
    return { chassis, l3gateway };
}

/** Gateway routers and their SNAT rules as NB has them: `GR_<node> <external ip> <logical ip>`. */
export async function nbGateways(lab: GatewayLab): Promise<string[]> {
    const nb = (args: string[]) => hostOut(lab.cluster, lab.central, ["ovn-nbctl", ...args]);
    const routers = (
        JSON.parse(await nb(["--format=json", "--columns=name,nat", "list", "Logical_Router"])) as { data: Array<[string, unknown]> }
    ).data
        .map(([n]) => n)
        .filter((n) => n.startsWith("GR_"));
    const out: string[] = [];
    for (const r of routers.sort()) {
        const nat = await nb(["lr-nat-list", r]);
        for (const m of nat.matchAll(/^snat\s+(\S+)\s+(\S+)/gm)) out.push(`${r} ${m[1]} ${m[2]}`);
    }
    return out;
}
