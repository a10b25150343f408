// Assertions on a live NB with ovn-nbctl (an independent client): the dev topology as the model
// says it must be, and the foreign rows that must survive every operation.
import assert from "node:assert/strict";
import type { ClusterModel, GatewayModel, NodeNetworkModel } from "../../../components/model/types";
import type { NbServer } from "../../../lab/harness/nbServer";
import { findColumn } from "../../../lab/harness/env";

/** One key of a map column, unquoted. */
const mapValue = async (nb: NbServer, table: string, record: string, column: string, key: string) =>
    (await nb.nbctl("get", table, record, `${column}:${key}`)).trim().replace(/^"(.*)"$/, "$1");
const get = async (nb: NbServer, table: string, record: string, column: string) =>
    (await nb.nbctl("--bare", `--columns=${column}`, "list", table, record)).trim();

export interface ForeignRows {
    switchUuid: string;
    lbUuid: string;
}

/** Rows made by an operator, not by the stack: a switch named like a node (with a port), and a load balancer. */
export async function addForeignRows(nb: NbServer): Promise<ForeignRows> {
    await nb.nbctl("ls-add", "kube-master", "--", "lsp-add", "kube-master", "operator-port");
    await nb.nbctl("lb-add", "foreign-lb", "10.96.0.1:80", "10.0.0.5:8080", "tcp");
    return {
        switchUuid: (await findColumn(nb, "Logical_Switch", "_uuid", "name=kube-master"))[0],
        lbUuid: (await findColumn(nb, "Load_Balancer", "_uuid", "name=foreign-lb"))[0],
    };
}

/** The operator's rows exist exactly as they were made: same UUIDs, no tags added, port still there. */
export async function assertForeignRowsSurvive(nb: NbServer, rows: ForeignRows): Promise<void> {
    assert.equal(await get(nb, "Logical_Switch", rows.switchUuid, "name"), "kube-master");
    assert.equal(await get(nb, "Logical_Switch", rows.switchUuid, "external_ids"), "");
    assert.equal(await get(nb, "Logical_Switch", rows.switchUuid, "load_balancer"), "");
    assert.match(await nb.nbctl("lsp-list", rows.switchUuid), /\(operator-port\)/);
    assert.equal(await get(nb, "Load_Balancer", rows.lbUuid, "vips"), "10.96.0.1:80=10.0.0.5:8080");
    assert.equal(await get(nb, "Load_Balancer", rows.lbUuid, "external_ids"), "");
}

export async function assertClusterRouter(nb: NbServer, m: ClusterModel): Promise<void> {
    const r = m.clusterRouter;
    assert.deepEqual(await findColumn(nb, "Logical_Router", "name", "external_ids:k8s-cluster-router=yes"), [r.name]);
    assert.deepEqual(await findColumn(nb, "Logical_Switch", "name", "external_ids:pulumi-group=cluster/ovn_cluster_router"), [
        r.joinSwitch,
    ]);
    assert.equal(await get(nb, "Logical_Router_Port", r.joinPort, "mac"), r.joinAddress.mac);
    assert.equal(await get(nb, "Logical_Router_Port", r.joinPort, "networks"), r.joinAddress.cidr);
    assert.equal((await nb.nbctl("lsp-get-type", r.joinPeerPort)).trim(), "router");
    assert.equal((await nb.nbctl("lsp-get-options", r.joinPeerPort)).trim(), `router-port=${r.joinPort}`);
    assert.equal((await nb.nbctl("lsp-get-addresses", r.joinPeerPort)).trim(), r.joinAddress.mac);
    assert.deepEqual(await findColumn(nb, "Load_Balancer", "protocol", "external_ids:k8s-cluster-lb-tcp=yes"), ["tcp"]);
    assert.deepEqual(await findColumn(nb, "Load_Balancer", "protocol", "external_ids:k8s-cluster-lb-udp=yes"), ["udp"]);
}

export async function assertNodeNetwork(nb: NbServer, n: NodeNetworkModel): Promise<void> {
    const uuids = await findColumn(nb, "Logical_Switch", "_uuid", `external_ids:pulumi-group=node/${n.node}`);
    assert.equal(uuids.length, 1, `one switch for ${n.node}`);
    const sw = uuids[0];
    assert.equal(await get(nb, "Logical_Switch", sw, "name"), n.switchName);
    assert.equal(await mapValue(nb, "Logical_Switch", sw, "other_config", "subnet"), n.subnet);
    assert.equal(await mapValue(nb, "Logical_Switch", sw, "external_ids", "gateway_ip"), n.router.cidr);
    assert.equal(await get(nb, "Logical_Router_Port", n.routerPort, "mac"), n.router.mac);
    assert.equal(await get(nb, "Logical_Router_Port", n.routerPort, "networks"), n.router.cidr);
    assert.match(await nb.nbctl("lrp-list", n.clusterRouter), new RegExp(`\\(${n.routerPort}\\)`));
    assert.equal((await nb.nbctl("lsp-get-type", n.routerPeerPort)).trim(), "router");
    assert.equal((await nb.nbctl("lsp-get-options", n.routerPeerPort)).trim(), `router-port=${n.routerPort}`);
    assert.equal((await nb.nbctl("lsp-get-addresses", n.routerPeerPort)).trim(), n.router.mac);
    assert.equal((await nb.nbctl("lsp-get-addresses", n.mgmtPort)).trim(), `${n.mgmt.mac} ${n.mgmt.ip}`);
    const lbs = (await get(nb, "Logical_Switch", sw, "load_balancer")).split(/\s+/).filter(Boolean).sort();
    const cluster = [
        ...(await findColumn(nb, "Load_Balancer", "_uuid", "external_ids:k8s-cluster-lb-tcp=yes")),
        ...(await findColumn(nb, "Load_Balancer", "_uuid", "external_ids:k8s-cluster-lb-udp=yes")),
    ].sort();
    assert.deepEqual(lbs, cluster);
}

export async function assertGateway(nb: NbServer, g: GatewayModel, host: { systemId: string; macAddress: string }): Promise<void> {
    assert.deepEqual(await findColumn(nb, "Logical_Router", "name", `external_ids:pulumi-group=gateway/${g.node}`), [g.router]);
    assert.equal(await mapValue(nb, "Logical_Router", g.router, "options", "chassis"), host.systemId);
    assert.equal(await mapValue(nb, "Logical_Router", g.router, "options", "lb_force_snat_ip"), g.join.ip);
    assert.equal(await mapValue(nb, "Logical_Router", g.router, "external_ids", "physical_ip"), g.physical.ip);
    assert.equal(await get(nb, "Logical_Router_Port", g.joinPort, "networks"), g.join.cidr);
    assert.equal((await nb.nbctl("lsp-get-options", g.joinPeerPort)).trim(), `router-port=${g.joinPort}`);
    assert.match(await nb.nbctl("lsp-list", "join"), new RegExp(`\\(${g.joinPeerPort}\\)`));
    assert.equal(await get(nb, "Logical_Router_Port", g.externalPort, "mac"), host.macAddress);
    assert.equal(await get(nb, "Logical_Router_Port", g.externalPort, "networks"), g.physical.cidr);
    assert.equal((await nb.nbctl("lsp-get-addresses", g.externalPeerPort)).trim(), host.macAddress);
    assert.equal((await nb.nbctl("lsp-get-type", g.uplinkPort)).trim(), "localnet");
    assert.equal((await nb.nbctl("lsp-get-options", g.uplinkPort)).trim(), "network_name=physnet");
    assert.equal((await nb.nbctl("lsp-get-addresses", g.uplinkPort)).trim(), "unknown");
    assert.match(await nb.nbctl("lsp-list", g.externalSwitch), new RegExp(`\\(${g.uplinkPort}\\)`));
    const nat = await nb.nbctl("lr-nat-list", g.router);
    assert.match(nat, new RegExp(`snat\\s+${g.physical.ip.replace(/\./g, "\\.")}\\s+${g.clusterSubnet.replace(/\./g, "\\.")}`));
    const routes = await nb.nbctl("lr-route-list", g.router);
    assert.match(routes, new RegExp(`${g.clusterSubnet.replace(/\./g, "\\.")}\\s+${g.clusterRouterJoinIp.replace(/\./g, "\\.")} dst-ip`));
    assert.match(routes, new RegExp(`0\\.0\\.0\\.0/0\\s+${g.defaultGateway.replace(/\./g, "\\.")} dst-ip ${g.externalPort}`));
    const clusterRoutes = await nb.nbctl("lr-route-list", g.clusterRouter);
    assert.match(clusterRoutes, new RegExp(`0\\.0\\.0\\.0/0\\s+${g.join.ip.replace(/\./g, "\\.")} dst-ip`));
    for (const subnet of g.rampoutSubnets)
        assert.match(clusterRoutes, new RegExp(`${subnet.replace(/\./g, "\\.")}\\s+${g.join.ip.replace(/\./g, "\\.")} src-ip`));
    const lbs = (await get(nb, "Logical_Router", g.router, "load_balancer")).split(/\s+/).filter(Boolean).sort();
    const own = [
        ...(await findColumn(nb, "Load_Balancer", "_uuid", `external_ids:TCP_lb_gateway_router=${g.router}`)),
        ...(await findColumn(nb, "Load_Balancer", "_uuid", `external_ids:UDP_lb_gateway_router=${g.router}`)),
    ].sort();
    assert.equal(own.length, 2);
    assert.deepEqual(lbs, own);
}

/** Rows per table carrying this owner's tag: a cheap fingerprint of everything the stack owns. */
export async function ownedCounts(nb: NbServer, owner: string): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of [
        "Logical_Switch",
        "Logical_Switch_Port",
        "Logical_Router",
        "Logical_Router_Port",
        "Logical_Router_Static_Route",
        "NAT",
        "Load_Balancer",
    ]) {
        counts[table] = (await findColumn(nb, table, "_uuid", `external_ids:pulumi-owner=${JSON.stringify(owner)}`)).length;
    }
    return counts;
}

/** A whole table through `ovn-nbctl --format=json list`: one object per row, values in OVSDB JSON. */
export async function listTable(nb: NbServer, table: string): Promise<Record<string, any>[]> {
    const { headings, data } = JSON.parse(await nb.nbctl("--format=json", "list", table)) as { headings: string[]; data: unknown[][] };
    return data.map((row) => Object.fromEntries(headings.map((h, i) => [h, row[i]])));
}

/** The elements of an OVSDB JSON set/atom and the entries of a map, as ovn-nbctl prints them. */
export const atoms = (v: any): any[] => (Array.isArray(v) && v[0] === "set" ? v[1] : [v]);
export const entries = (v: any): Record<string, string> => Object.fromEntries(v[1]);
