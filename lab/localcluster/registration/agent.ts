// What a kubelet does for its Node, and all this agent does: registration, a status heartbeat
// every 10 s and the Lease in kube-node-lease renewed as often, which the node lifecycle
// controller watches to tell a live node from a lost one.
import * as os from "node:os";
import { isConflict } from "../../kubeclient";
import { NodeApi } from "./api";
import { inHost, readTextOr } from "../hostfs";
import { HEARTBEAT_INTERVAL_MS, NodeFacts, NodeIdentity, initialNode, nodeLabels, nodeLease, nodeStatusPatch } from "./nodeObject";
import { apiTime } from "./time";
import type { Node } from "./types";

/** What the node reports about its machine, read from the host's files. */
export function readNodeFacts(holderPid: number): NodeFacts {
    const osRelease = readTextOr(inHost(holderPid, "/etc/os-release"));
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1] ?? "Linux";
    return {
        machineID: readTextOr(inHost(holderPid, "/etc/machine-id")).trim(),
        bootID: readTextOr("/proc/sys/kernel/random/boot_id").trim(),
        kernelVersion: os.release(),
        osImage: pretty,
        architecture: process.arch === "x64" ? "amd64" : process.arch,
    };
}

/** The machine's CPUs and memory (the hosts share it) and the kubelet's default of 110 pods. */
export function machineCapacity(): Record<string, string> {
    const memKi = /^MemTotal:\s+(\d+) kB/m.exec(readTextOr("/proc/meminfo"))?.[1] ?? String(Math.floor(os.totalmem() / 1024));
    return { cpu: String(os.cpus().length), memory: `${memKi}Ki`, pods: "110" };
}

export class NodeAgent {
    private timer?: NodeJS.Timeout;
    private node?: Node;

    constructor(
        private readonly api: NodeApi,
        private readonly id: NodeIdentity,
        private readonly facts: NodeFacts,
        private readonly log: (line: string) => void,
    ) {}

    /** Creates the Node (or takes over an existing one, refreshing the labels this kubelet sets), then reports status once. */
    async register(): Promise<Node> {
        try {
            this.node = await this.api.createNode(initialNode(this.id, this.facts, apiTime(new Date())));
            this.log(`node ${this.id.name} registered`);
        } catch (e) {
            // 409 AlreadyExists: a Node of this name is there (an earlier run of this kubelet).
            if (!isConflict(e)) throw e;
            this.node = await this.api.patchNode(this.id.name, { metadata: { labels: nodeLabels(this.id, this.facts) } });
            this.log(`node ${this.id.name} already registered: taken over`);
        }
        await this.heartbeat();
        return this.node;
    }

    /** Status and lease now, then every 10 s; a failed beat is logged and the next one tries again. */
    start(): void {
        this.timer = setInterval(
            () => void this.heartbeat().catch((e) => this.log(`heartbeat failed: ${(e as Error).message}`)),
            HEARTBEAT_INTERVAL_MS,
        );
    }

    stop(): void {
        clearInterval(this.timer);
    }

    private async heartbeat(): Promise<void> {
        const now = new Date();
        const old = this.node?.status?.conditions ?? [];
        this.node = await this.api.patchNodeStatus(this.id.name, nodeStatusPatch(this.id, this.facts, old, apiTime(now)));
        await this.renewLease(now);
    }

    private async renewLease(now: Date): Promise<void> {
        const uid = this.node!.metadata!.uid!;
        const existing = await this.api.lease(this.id.name);
        try {
            if (existing) await this.api.updateLease(nodeLease(this.id.name, uid, now, existing));
            else await this.api.createLease(nodeLease(this.id.name, uid, now));
        } catch (e) {
            // Someone else wrote it between our read and write: the next beat reads it again.
            if (!isConflict(e)) throw e;
        }
    }
}
