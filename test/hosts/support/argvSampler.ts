// The command line of every process started on this machine while a test runs something, sampled
// in a tight loop on a worker thread: what `ps` would have shown at any moment. Bounded in time; the test stops
// it when its run is over. Hosts of the local cluster share this machine's PID namespace, so their
// processes are all seen.
import { Worker } from "node:worker_threads";

export interface ArgvSample {
    /** Distinct command lines of processes started after sampling began (NULs between arguments turned into spaces). */
    commandLines: string[];
    /** How many times every process was read. */
    passes: number;
}

const SAMPLER = `
const { readdirSync, readFileSync } = require("node:fs");
const { parentPort, workerData } = require("node:worker_threads");
const stop = new Int32Array(workerData.stop);
const seen = new Set();
const deadline = Date.now() + workerData.maxMs;
const pids = () => readdirSync("/proc").filter((p) => p.charCodeAt(0) >= 48 && p.charCodeAt(0) <= 57).map(Number);
// Only processes started after the sampler (PIDs wrap, so by set, not by number): reading fewer
// command lines makes each pass quicker, so short-lived processes are caught.
const before = new Set(pids());
let passes = 0;
while (Atomics.load(stop, 0) === 0 && Date.now() < deadline) {
    for (const pid of pids()) {
        if (before.has(pid)) continue;
        try { seen.add(readFileSync("/proc/" + pid + "/cmdline", "latin1")); } catch {}
    }
    passes++;
}
parentPort.postMessage({ commandLines: [...seen].map((l) => l.split("\\0").join(" ").trim()), passes });
`;

/** Starts sampling; `stop()` ends it and returns what was seen. Stops by itself after `maxMs`. */
export function sampleCommandLines(maxMs = 120_000): { stop(): Promise<ArgvSample> } {
    const stop = new SharedArrayBuffer(4);
    const worker = new Worker(SAMPLER, { eval: true, workerData: { stop, maxMs } });
    const result = new Promise<ArgvSample>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
    });
    return {
        async stop() {
            Atomics.store(new Int32Array(stop), 0, 1);
            const sample = await result;
            await worker.terminate();
            return sample;
        },
    };
}
