// An ovnkube-mode lab: local hosts with their Kubernetes (control plane and kubelets),
// an ovnkube-mode stack file for them, and the offline engine's options; then the first apply,
// timed. `bringUpOvnkubeLab` is what the end-to-end test and a benchmark share: its timings are
// the bring-up (hosts and Kubernetes) and the apply (packages, OVS/OVN, ovnkube, until ovnkube has
// realised the plan).
import assert from "node:assert/strict";
import * as path from "node:path";
import { readStackFile, validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { buildClusterModel, type ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { KubeClient } from "../kubeclient";
import { down, LOCAL_LAB_PASSPHRASE, writeLocalStack, type HostOs, type LocalCluster } from "../localcluster";
import type { LocalStackOptions } from "../localcluster/stackFile";
import type { OvnKubernetesRelease } from "../localcluster/labReleases";
import { upWithKubernetes, type KubernetesLab } from "../localcluster/kubernetes";
import type { IpFamily } from "../localcluster/ipFamily";
import { apply, refresh, type OfflineOptions, type OperationResult } from "../offline/api";

export interface OvnkubeLabOptions {
    id: string;
    hosts: number;
    os: HostOs;
    /** Holds the stack file and the offline engine's state (--local-dir). */
    workDir: string;
    /** The ovn-kubernetes release the stack starts with (default the lab's). */
    release?: OvnKubernetesRelease;
    /** Settings of the stack beyond the lab's defaults: the `ovnkube` argument, per-node settings. */
    stack?: LabStackSettings;
    /** The cluster's address families (default ipv4): the underlay, Kubernetes and the stack follow it. */
    ipFamily?: IpFamily;
    log?: (line: string) => void;
}

export type LabStackSettings = Pick<LocalStackOptions, "ovnkube" | "centrals" | "nodeSettings">;

export interface OvnkubeLab {
    cluster: LocalCluster;
    kubernetes: KubernetesLab;
    /** The cluster admin's client (close it when done). */
    admin: KubeClient;
    /** Stack `local-<id>` in workDir, as `pulumi -s local-<id>` would take it. */
    offline: OfflineOptions;
    /** The plan, built from the stack file as the program builds it. */
    model: ClusterModel;
}

/** (Re)writes the lab's ovnkube-mode stack file, with other `ovnkube` settings, centrals or node settings when given. */
export function writeLabStack(lab: Pick<OvnkubeLab, "cluster" | "kubernetes">, file: string, more: LabStackSettings = {}): string {
    const { controlPlane } = lab.kubernetes;
    return writeLocalStack(lab.cluster, file, {
        passphrase: LOCAL_LAB_PASSPHRASE,
        kubernetes: { apiServerUrl: controlPlane.apiServerUrl, kubeconfig: controlPlane.adminKubeconfig.content },
        ...more,
    });
}

/** Hosts, their Kubernetes and an ovnkube-mode stack file; nothing applied yet. */
export async function startOvnkubeLab(opts: OvnkubeLabOptions): Promise<OvnkubeLab> {
    await down(opts.id);
    const { cluster, kubernetes } = await upWithKubernetes({
        id: opts.id,
        hosts: opts.hosts,
        os: opts.os,
        ovnKubernetes: opts.release,
        ipFamily: opts.ipFamily,
        log: opts.log ?? (() => undefined),
    });
    const stack = `local-${opts.id}`;
    const stackFile = writeLabStack({ cluster, kubernetes }, path.join(opts.workDir, `Pulumi.${stack}.yaml`), opts.stack);
    return {
        cluster,
        kubernetes,
        admin: KubeClient.fromKubeconfig(kubernetes.controlPlane.adminKubeconfig.content),
        offline: { stack, stackFile, localDir: opts.workDir, passphrase: LOCAL_LAB_PASSPHRASE },
        model: buildClusterModel(validateConfig(readStackFile(stackFile))),
    };
}

export interface BringUpTimings {
    /** Hosts, control plane and kubelets, from nothing. */
    bringUpMs: number;
    /** The first apply, until every expectation saw ovnkube's rows as planned. */
    applyMs: number;
    /** Resources the first apply created. */
    resources: number;
}

export interface OvnkubeBringUp {
    lab: OvnkubeLab;
    first: OperationResult;
    timings: BringUpTimings;
}

/** Brings the lab up and applies the stack once; `beforeApply` sees the bare hosts (not timed). */
export async function bringUpOvnkubeLab(
    opts: OvnkubeLabOptions,
    beforeApply?: (lab: OvnkubeLab) => Promise<void>,
): Promise<OvnkubeBringUp> {
    let started = Date.now();
    const lab = await startOvnkubeLab(opts);
    const bringUpMs = Date.now() - started;
    await beforeApply?.(lab);
    started = Date.now();
    const first = await apply(lab.offline);
    return { lab, first, timings: { bringUpMs, applyMs: Date.now() - started, resources: first.counts.created } };
}

/** The lab as a stack written without `host` sees it: what an operator's stack lists once the node has left. */
export function withoutHost(lab: Pick<OvnkubeLab, "cluster" | "kubernetes">, host: string): Pick<OvnkubeLab, "cluster" | "kubernetes"> {
    return { ...lab, cluster: { ...lab.cluster, hosts: lab.cluster.hosts.filter((h) => h.name !== host) } };
}

/** A second up changes nothing, and a refresh finds no drift. */
export async function assertUpAndRefreshChangeNothing(offline: OfflineOptions): Promise<void> {
    const again = await apply(offline);
    assert.equal(again.ok, true, again.error);
    assert.deepEqual(
        again.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`),
        [],
    );
    const refreshed = await refresh(offline);
    assert.equal(refreshed.ok, true, refreshed.error);
    assert.deepEqual(
        refreshed.drift.map((d) => `${d.name} [${d.keys.join(", ")}]`),
        [],
    );
}
