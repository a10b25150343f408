// A local cluster for the real host-script tests: bring up, run commands inside hosts, and
// model values matching its hosts.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { ovsStartScript } from "../../../components/hosts/scripts";
import { closeSshPool } from "../../../components/ssh/pool";
import { down, hostExec, up } from "../../../lab/localcluster";
import type { LocalCluster, LocalHost } from "../../../lab/localcluster";
import type { HostModel } from "../../../components/model/types";
import { hostModel } from "../fixtures";
import { installBundle, runOk } from "./remote";

export async function startLab(id: string, hosts: number): Promise<LocalCluster> {
    await down(id); // whatever an aborted earlier run left behind
    const lab = await up({ id, hosts });
    for (const h of lab.hosts) await installBundle(lab, h.name);
    return lab;
}

/** One host with Open vSwitch running for the calling file's tests (handed to `up`), brought down after them. */
export function ovsHostLab(id: string, up: (lab: LocalCluster) => void): void {
    before(async () => {
        const lab = await startLab(id, 1);
        await runOk(lab, lab.hosts[0].name, ovsStartScript(labHost(lab.hosts[0])).create);
        up(lab);
    });
    after(async () => {
        closeSshPool();
        await down(id);
    });
}

/** Run `script` inside a host (its namespaces, not over SSH) and return stdout; fail on non-zero. */
export async function inHost(cluster: LocalCluster, host: string, script: string): Promise<string> {
    const r = await hostExec(cluster, host, ["bash", "-c", script]);
    assert.equal(r.code, 0, `${host}: ${script}\n${r.stderr}`);
    return r.stdout;
}

/** A chassis host model for a local-cluster host (userspace datapath: no kernel OVS module here). */
export function labHost(
    host: LocalHost,
    over: Partial<NonNullable<HostModel["chassis"]>> = {},
    hostOver: Partial<HostModel> = {},
): HostModel {
    return hostModel({
        name: host.name,
        datapathType: "netdev",
        chassis: {
            writer: "pulumi",
            encapIp: host.ip,
            encapType: "geneve",
            k8sApiServer: "http://10.0.0.1:8080",
            controller: "packages",
            ...over,
        },
        ...hostOver,
    });
}

export function ovsdbAddresses(central: LocalHost, proto: "tcp" | "ssl" = "tcp") {
    return { nbAddress: `${proto}:${central.ip}:6641`, sbAddress: `${proto}:${central.ip}:6642` };
}

/** One external_id of the host's Open_vSwitch row, decoded; undefined when absent. */
export async function externalId(cluster: LocalCluster, host: string, key: string): Promise<string | undefined> {
    const out = (await inHost(cluster, host, `ovs-vsctl --if-exists get Open_vSwitch . external_ids:${key}`)).trim();
    if (out === "") return undefined;
    return out.startsWith('"') ? (JSON.parse(out) as string) : out;
}
