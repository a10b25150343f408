// The registration agent's process: `node --import tsx localcluster/registration/main.ts
// <options.json>`, started in the host's network namespace (startRegistration), so that it reaches
// the API server over the underlay as a kubelet does. It registers the Node and keeps it and its
// Lease fresh until SIGTERM (the cluster's `down`).
import { KubeClient, pollUntil } from "../../kubeclient";
import { isLiveProcess } from "../namespaces";
import { NodeApi } from "./api";
import { NodeAgent, machineCapacity, readNodeFacts } from "./agent";
import { loadOptions } from "./options";

/** The line startRegistration waits for. */
export const READY_LINE = "registration agent ready";

const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);

export async function main(optionsFile: string): Promise<void> {
    const config = loadOptions(optionsFile);
    if (!isLiveProcess(config.holderPid)) throw new Error(`host holder ${config.holderPid} is not running: is the host up?`);
    const api = new NodeApi(KubeClient.fromKubeconfigFile(config.kubeconfigPath));
    const identity = {
        name: config.nodeName,
        internalIP: config.internalIP,
        labels: config.labels,
        capacity: config.capacity ?? machineCapacity(),
    };
    const node = new NodeAgent(api, identity, readNodeFacts(config.holderPid), log);
    // The API server may still be starting: registration is retried, bounded, as a kubelet keeps trying.
    await pollUntil(() => node.register(), {
        timeoutMs: 120_000,
        intervalMs: 2000,
        what: `registration of node ${config.nodeName} at ${api.client.server}`,
    });
    node.start();
    for (const sig of ["SIGTERM", "SIGINT"] as const) {
        process.on(sig, () => {
            log(`${sig}: stopping`);
            process.exit(0);
        });
    }
    log(`${READY_LINE}: ${config.nodeName}, host holder ${config.holderPid}`);
}

if (require.main === module) {
    main(process.argv[2] ?? "").catch((e) => {
        console.error(`registration: ${(e as Error).message}`);
        process.exit(1);
    });
}
