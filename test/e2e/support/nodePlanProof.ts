// A node's plan as ovnkube realised it, in every family the cluster has: its Node's node-subnets
// annotation, its switch's subnet and IPv6 prefix, its gateway router's join addresses; in the NB
// that holds its rows (the central one, or its own zone's), read through `nbctl`.
import assert from "node:assert/strict";
import { NODE_SUBNETS_ANNOTATION } from "../../../components/kube/objectNames";
import { gatewayRouter, routerToJoin } from "../../../components/model/names";
import type { OvnkubeNodeModel } from "../../../components/model/types";
import { hostExec } from "../../../lab/localcluster";
import type { OvnkubeLab } from "../../../lab/scenarios/ovnkubeLab";

/** ovn-nbctl's output for `argv` against the NB that holds the node's rows. */
export type Nbctl = (argv: string[]) => Promise<string>;

/** ovn-nbctl against one zone's NB, on its host (interconnect). */
export const zoneNbctl =
    (lab: OvnkubeLab, zone: string): Nbctl =>
    async (argv) => {
        const r = await hostExec(lab.cluster, zone, ["ovn-nbctl", "--timeout=10", ...argv]);
        assert.equal(r.code, 0, `${zone}: ovn-nbctl ${argv.join(" ")}: ${r.stderr}`);
        return r.stdout.trim();
    };

const isV6 = (cidr: string) => cidr.includes(":");

/** node-subnets lists the planned subnet of each family; the switch and the join port carry them. */
export async function assertNodeAsPlanned(nbctl: Nbctl, node: OvnkubeNodeModel, annotations: Record<string, string>): Promise<void> {
    assert.deepEqual(JSON.parse(annotations[NODE_SUBNETS_ANNOTATION]), { default: node.subnets }, node.name);
    const get = async (table: string, column: string, record = node.name) => JSON.parse(await nbctl(["get", table, record, column]));
    const v4 = node.subnets.find((s) => !isV6(s));
    const v6 = node.subnets.find(isV6);
    if (v4) assert.equal(await get("Logical_Switch", "other_config:subnet"), v4, `switch ${node.name}`);
    if (v6) assert.equal(await get("Logical_Switch", "other_config:ipv6_prefix"), v6.split("/")[0], `switch ${node.name}`);
    const join = routerToJoin(gatewayRouter(node.name));
    assert.deepEqual((await get("Logical_Router_Port", "networks", join)).sort(), node.gatewayRouterJoin.map((j) => j.cidr).sort(), join);
}

/** The transit annotation's value for `node`: its planned transit address per family. */
export const plannedTransitAnnotation = (node: OvnkubeNodeModel) =>
    Object.fromEntries((node.transit ?? []).map((t) => [isV6(t.cidr) ? "ipv6" : "ipv4", t.cidr]));
