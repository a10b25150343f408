// The workload proof in every address family a cluster runs (dual stack: both; IPv6 only: IPv6),
// for pods one per node: each pod's address of each family in its node's planned subnet of that
// family; every pod and host pings every pod's address of each family; a Service asking for every
// family answers at each ClusterIP keeping the client's address; and the outside namespace sees
// each pod's traffic from its node's address of that family. Family i is the plan's i-th.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before } from "node:test";
import { containsIp, parseNetwork } from "../../../components/values";
import { pollUntil } from "../../../lab/kubeclient";
import { down, type HostOs, type PodRef } from "../../../lab/localcluster";
import { CHECK_PORT, formatMatrix, pingMatrix, tcpExchange } from "../../../lab/localcluster/checks";
import { createClusterIpsService, createNodePortService, podRef, type KubePod } from "../../../lab/localcluster/kubeWorkloads";
import { findHost, hostIps } from "../../../lab/localcluster/state";
import { bringUpOvnkubeLab, type LabStackSettings, type OvnkubeLab } from "../../../lab/scenarios/ovnkubeLab";
import type { IpFamily } from "../../../lab/localcluster/ipFamily";
import type { OvnKubernetesRelease } from "../../../lab/localcluster/labReleases";
import { removeDemoWorkloads, startDemoDeployment } from "../../../lab/localcluster/kubeWorkloads";
import { destroy } from "../../../lab/offline/api";
import { snapshotHost, type HostSnapshot } from "./hostSnapshot";
import { processesNamed } from "./hostDaemons";
import { phase } from "./phase";

/** The label that tells the server pod from its Deployment's other pods (theirs are all alike). */
export const SERVER_LABEL = { "lab-role": "server" };
/** The Deployment with a pod on every node. */
export const SPREAD = "spread";

export interface FamilyLab {
    lab: OvnkubeLab;
    /** One pod per node, sorted by node: [client, server (SERVER_LABEL), …]. */
    pods: KubePod[];
    /** Every host before the first up. */
    bareHosts: Map<string, HostSnapshot>;
}

/** What a family lab starts with beyond the lab's defaults: the stack's settings, the release. */
export interface FamilyLabStart {
    /** The hosts' system (default Debian unstable). */
    os?: HostOs;
    stack?: LabStackSettings;
    release?: OvnKubernetesRelease;
    /** What happens on the bare hosts (snapshotted) before the up that brings the cluster up, which must then succeed. */
    beforeFirstUp?: (lab: OvnkubeLab) => Promise<void>;
}

/** 3 hosts (Debian unstable unless `start.os`) in `ipFamily`, the stack applied once, and a Deployment with a pod on every node. */
export async function startFamilyLab(id: string, ipFamily: IpFamily, workDir: string, start: FamilyLabStart = {}): Promise<FamilyLab> {
    const bareHosts = new Map<string, HostSnapshot>();
    const { beforeFirstUp, os = "debian-sid", ...settings } = start;
    const lab = await phase(`bring-up and apply (${ipFamily})`, async () => {
        const { lab, first } = await bringUpOvnkubeLab({ id, hosts: 3, os, workDir, ipFamily, ...settings }, async (bare) => {
            for (const h of bare.cluster.hosts) bareHosts.set(h.name, await snapshotHost(bare.cluster, h.name));
            await beforeFirstUp?.(bare);
        });
        assert.equal(first.ok, true, first.error);
        return lab;
    });
    const pods = await phase("Deployment", () =>
        startDemoDeployment(lab.admin, lab.cluster, { name: SPREAD, replicas: 3, command: ["sleep", "infinity"] }),
    );
    assert.deepEqual(
        pods.map((p) => p.node),
        lab.cluster.hosts.map((h) => h.name),
        "one pod on every node",
    );
    const server = pods[1];
    await lab.admin.patch(
        { apiVersion: "v1", kind: "Pod", namespace: server.namespace, name: server.name },
        { metadata: { labels: SERVER_LABEL } },
        "merge",
    );
    return { lab, pods, bareHosts };
}

/**
 * One lab cluster for a whole test file: brought up before its tests (startFamilyLab), taken down
 * after them. Returns the way to it for the tests.
 */
export function familyLabForFile(id: string, ipFamily: IpFamily, start: FamilyLabStart = {}): () => FamilyLab {
    const workDir = fs.mkdtempSync(path.join(tmpdir(), `${id}-`));
    let family: FamilyLab | undefined;
    before(async () => {
        family = await startFamilyLab(id, ipFamily, workDir, start);
    });
    after(async () => {
        family?.lab.admin.close();
        await down(id);
        fs.rmSync(workDir, { recursive: true, force: true });
    });
    return () => {
        if (!family) throw new Error(`lab cluster ${id} is not up`);
        return family;
    };
}

/** The demo's workloads removed: the spread Deployment, `services`, and `deployments` by name and namespace. */
export async function removeFamilyWorkloads(
    { lab }: FamilyLab,
    services: string[],
    deployments: Array<{ name: string; namespace?: string }> = [],
): Promise<void> {
    await phase("workloads removed", () =>
        removeDemoWorkloads(
            lab.admin,
            lab.cluster,
            [],
            services.map((name) => ({ name })),
            [{ name: SPREAD }, ...deployments],
        ),
    );
}

/** The workloads removed (as `removeFamilyWorkloads`), destroy leaves no OVN process and every host as it was before the first up. */
export async function assertDestroyLeavesHosts(
    family: FamilyLab,
    services: string[],
    deployments: Array<{ name: string; namespace?: string }> = [],
): Promise<void> {
    const { lab, bareHosts } = family;
    await removeFamilyWorkloads(family, services, deployments);
    const r = await phase("destroy", () => destroy(lab.offline));
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(processesNamed(lab.cluster, ["ovnkube", "ovn-northd", "ovn-controller"]), []);
    for (const host of lab.cluster.hosts) assert.deepEqual(await snapshotHost(lab.cluster, host.name), bareHosts.get(host.name), host.name);
}

/** Every pod and every host pings every pod's address of every family (ping and ping6). */
export async function assertPingEveryFamily(lab: OvnkubeLab, pods: readonly KubePod[]): Promise<void> {
    const sources = [
        ...pods.map((p) => ({ label: p.name, from: podRef(p) as string | PodRef })),
        ...lab.cluster.hosts.map((h) => ({ label: h.name, from: h.name })),
    ];
    const targets = pods.flatMap((p) => p.ips.map((ip) => ({ label: `${p.name} ${ip.includes(":") ? "v6" : "v4"}`, ip })));
    const matrix = await pingMatrix(lab.cluster, sources, targets, 45);
    assert.ok(matrix.allOk, "\n" + formatMatrix(matrix));
}

/**
 * A Service selecting `server` by `selector` and asking for `policy` gets a ClusterIP of each
 * family in that family's service range, and `client` reaches the server at each, seen from its
 * own address of that family.
 */
export async function assertServiceEveryFamily(
    lab: OvnkubeLab,
    name: string,
    selector: Record<string, string>,
    policy: "SingleStack" | "RequireDualStack",
    [client, server]: readonly KubePod[],
): Promise<void> {
    const clusterIps = await createClusterIpsService(lab.admin, {
        name,
        selector,
        port: CHECK_PORT,
        targetPort: CHECK_PORT,
        ipFamilyPolicy: policy,
    });
    assert.equal(clusterIps.length, lab.model.serviceSubnets.length, clusterIps.join(", "));
    for (const [i, ip] of clusterIps.entries()) {
        assert.ok(containsIp(parseNetwork(lab.model.serviceSubnets[i]), ip), `${ip} outside ${lab.model.serviceSubnets[i]}`);
        // ovnkube adds the Service's load balancer asynchronously.
        const seen = await pollUntil(
            async () => {
                const r = await tcpExchange(lab.cluster, { pod: podRef(server) }, ip, { pod: podRef(client) }, CHECK_PORT, 1);
                if (!r.ok) throw new Error(r.error);
                return r.seenSource;
            },
            { timeoutMs: 30_000, intervalMs: 500, what: `the server pod through ClusterIP ${ip}` },
        );
        assert.equal(seen, client.ips[i], `through ${ip}`);
    }
}

/** Every pod reaches the outside in every family, seen from its node's address of that family, as planned. */
export async function assertOutsideEveryFamily(lab: OvnkubeLab, pods: readonly KubePod[]): Promise<void> {
    const { ip, ip6 } = lab.cluster.external;
    for (const pod of pods) {
        const planned = lab.model.kube.nodes.find((n) => n.name === pod.node)!.gatewayIps;
        const nodeIps = hostIps(lab.cluster, findHost(lab.cluster, pod.node));
        assert.deepEqual(planned, nodeIps, `${pod.node}'s planned gateway addresses`);
        for (const [i, nodeIp] of nodeIps.entries()) {
            const outside = nodeIp.includes(":") ? ip6! : ip;
            const r = await tcpExchange(lab.cluster, { external: true }, outside, { pod: podRef(pod) });
            assert.deepEqual(r, { ok: true, seenSource: planned[i] }, `${pod.name} → ${outside}`);
        }
    }
}

/**
 * A NodePort Service for the server pod (SERVER_LABEL) answers from the outside at every node's
 * first gateway address (the Service's family), once ovnkube added its load balancer.
 */
export async function assertNodePortFromOutside(lab: OvnkubeLab, service: string, server: KubePod): Promise<void> {
    const { nodePort } = await createNodePortService(lab.admin, {
        name: service,
        selector: SERVER_LABEL,
        port: CHECK_PORT,
        targetPort: CHECK_PORT,
    });
    for (const node of lab.model.kube.nodes) {
        const ip = node.gatewayIps[0];
        await pollUntil(
            async () => {
                const r = await tcpExchange(lab.cluster, { pod: podRef(server) }, server.ip, { external: true }, CHECK_PORT, 1, {
                    ip,
                    port: nodePort,
                });
                if (!r.ok) throw new Error(r.error);
                return r;
            },
            { timeoutMs: 30_000, intervalMs: 500, what: `NodePort ${ip}:${nodePort} (${node.name}) from the outside` },
        );
    }
}
