// The kubelet stand-in's process: `node --import tsx localcluster/kubelet/main.ts <options.json>`,
// started in the host's network namespace (startKubelet). It registers the Node and keeps it and
// its Lease fresh, then runs the pods bound to the node. Containers are its children: on the way
// out (SIGTERM from the cluster's `down`, SIGINT, a crash) it kills them, since a pod's processes
// in a namespace of their own would otherwise outlive the host unseen.
import * as fs from "node:fs";
import * as path from "node:path";
import { KubeClient, pollUntil } from "../../kubeclient";
import { isLiveProcess } from "../namespaces";
import { KubeletApi } from "./api";
import { CniHost, networkStatus } from "./cni";
import { inHost } from "./hostfs";
import { NodeAgent, machineCapacity, readNodeFacts } from "./node";
import { loadOptions } from "./options";
import { PodManager } from "./pods";
import { recordedSandboxes, removeSandbox, shareNetnsDir } from "./sandbox";
import { podDir } from "./mounts";

/** The line startKubelet waits for. */
export const READY_LINE = "kubelet ready";

const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);

/** Sandboxes an earlier run of this kubelet left: torn down before any pod starts again. */
async function collectLeftovers(cni: CniHost, rootDir: string): Promise<void> {
    for (const { uid, record } of recordedSandboxes(cni.holderPid, rootDir)) {
        try {
            await removeSandbox(cni, rootDir, uid, record);
            fs.rmSync(inHost(cni.holderPid, podDir(rootDir, uid)), { recursive: true, force: true });
            log(`removed the sandbox ${record.netnsName} of pod ${uid} left by an earlier run`);
        } catch (e) {
            log(`cannot remove the sandbox ${record.netnsName} of pod ${uid}: ${(e as Error).message}`);
        }
    }
}

export async function main(optionsFile: string): Promise<void> {
    const config = loadOptions(optionsFile);
    if (!isLiveProcess(config.holderPid)) throw new Error(`host holder ${config.holderPid} is not running: is the host up?`);
    const api = new KubeletApi(KubeClient.fromKubeconfigFile(config.kubeconfigPath));
    const cni: CniHost = { holderPid: config.holderPid, confDir: config.cniConfDir, binDirs: config.cniBinDirs };

    await shareNetnsDir(config.holderPid);
    await collectLeftovers(cni, config.rootDir);

    const network = () => {
        const s = networkStatus(cni);
        return s.ready ? { ready: true as const } : { ready: false as const, message: s.message };
    };
    const identity = { name: config.nodeName, internalIP: config.internalIP, labels: config.labels, capacity: config.capacity ?? machineCapacity() };
    const node = new NodeAgent(api, identity, readNodeFacts(config.holderPid), network, log);
    // The API server may still be starting: registration is retried, bounded, as a kubelet keeps trying.
    await pollUntil(() => node.register(), { timeoutMs: 120_000, intervalMs: 2000, what: `registration of node ${config.nodeName} at ${api.client.server}` });
    node.start();

    const pods = new PodManager({ api, config, cni, log });
    pods.start();
    process.on("exit", () => pods.killAll());
    for (const sig of ["SIGTERM", "SIGINT"] as const) {
        process.on(sig, () => {
            log(`${sig}: stopping`);
            process.exit(0);
        });
    }
    log(`${READY_LINE}: node ${config.nodeName}, host holder ${config.holderPid}, pods in ${path.posix.join(config.rootDir, "pods")}`);
}

if (require.main === module) {
    main(process.argv[2] ?? "").catch((e) => {
        console.error(`kubelet: ${(e as Error).message}`);
        process.exit(1);
    });
}
