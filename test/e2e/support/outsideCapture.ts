// What the outside sees of the packets that reach it: tcpdump in the external namespace, its
// verbose lines read for each IPv4 packet's source, destination and DSCP (the upper six bits of the
// TOS byte). Pods send with this machine's Node.js run in their network namespaces.
import type { LocalCluster, PodRef } from "../../../lab/localcluster";
import { argvIn } from "../../../lab/localcluster/checks";
import { run } from "../../../lab/localcluster/run";
import { startBackground } from "./background";

export interface SeenPacket {
    src: string;
    dst: string;
    dport: number;
    dscp: number;
}

/** `tcpdump -n -v -t` prints each IPv4 packet as `IP (tos 0xb8, ttl …)` and, on the next line, `src.port > dst.port: …`. Pure. */
export function parseTcpdumpVerbose(text: string): SeenPacket[] {
    const ip4 = String.raw`(\d+\.\d+\.\d+\.\d+)`;
    const packet = new RegExp(String.raw`IP \(tos (0x[0-9a-f]+)[^\n]*\n\s+${ip4}\.\d+ > ${ip4}\.(\d+):`, "g");
    return [...text.matchAll(packet)].map((m) => ({ src: m[2], dst: m[3], dport: Number(m[4]), dscp: parseInt(m[1], 16) >> 2 }));
}

/** Captures UDP packets to `port` arriving in the external namespace while `during` runs. */
export async function captureOutside(cluster: LocalCluster, port: number, during: () => Promise<void>): Promise<SeenPacket[]> {
    const capture = await startBackground(
        argvIn(cluster, { external: true }, [
            "tcpdump",
            "-i",
            "eth0",
            "-n",
            "-v",
            "-t",
            "-l",
            "-Q",
            "in",
            "udp",
            "and",
            "dst",
            "port",
            String(port),
        ]),
        (_out, err) => err.includes("listening on"),
    );
    let printed = "";
    try {
        await during();
        // The last packets' way through the gateway; tcpdump prints what it holds when interrupted.
        await new Promise((r) => setTimeout(r, 500));
    } finally {
        printed = (await capture.stop("SIGINT")).stdout;
    }
    return parseTcpdumpVerbose(printed);
}

const SEND = `const d=require("dgram").createSocket("udp4");let i=0;const t=setInterval(()=>{d.send("p"+i,+process.argv[2],process.argv[1]);if(++i>=+process.argv[3]){clearInterval(t);setTimeout(()=>d.close(),100)}},50)`;

/** Sends `count` UDP datagrams from the pod to ip:port. */
export async function sendUdp(cluster: LocalCluster, from: PodRef, ip: string, port: number, count: number): Promise<void> {
    const r = await run(argvIn(cluster, { pod: from }, [process.execPath, "-e", SEND, ip, String(port), String(count)]), {
        timeoutMs: 20_000,
    });
    if (r.code !== 0) throw new Error(`sending UDP from ${from.pod} to ${ip}:${port} failed (${r.code}): ${r.stderr}`);
}
