// Multicast between pods: receivers join a group (the kernel sends the IGMP report OVN's snooping
// learns from) and count the datagrams that reach them while a sender sends to the group. The
// programs are this machine's Node.js run in the pods' network namespaces, whatever the pods' image.
import type { LocalCluster, PodRef } from "../../../lab/localcluster";
import { argvIn } from "../../../lab/localcluster/checks";
import { run } from "../../../lab/localcluster/run";
import { startBackground } from "./background";

const RECEIVER = `const d=require("dgram").createSocket({type:"udp4",reuseAddr:true});let n=0;d.on("message",()=>n++);process.on("SIGTERM",()=>{console.log("received "+n);process.exit(0)});d.bind(+process.argv[2],()=>{d.addMembership(process.argv[1]);console.log("joined")})`;
// TTL above 1: the group's datagrams cross the cluster router to the other nodes' switches.
const SENDER = `const d=require("dgram").createSocket("udp4");d.bind(()=>{d.setMulticastTTL(8);let i=0;const t=setInterval(()=>d.send("m"+i++,+process.argv[2],process.argv[1]),+process.argv[4]);setTimeout(()=>{clearInterval(t);d.close();console.log("sent "+i)},+process.argv[3])})`;

export interface MulticastRound {
    sent: number;
    /** Datagrams each receiver got, in the receivers' order. */
    received: number[];
}

/** How long receivers wait after joining before the sender starts, and how long it sends. */
const JOIN_SETTLE_MS = 1500;
const SEND_MS = 3000;
const SEND_EVERY_MS = 100;

/** One round: every receiver joins `group`, the sender sends to group:port for SEND_MS, then each receiver's count. */
export async function multicastRound(
    cluster: LocalCluster,
    sender: PodRef,
    receivers: readonly PodRef[],
    group: string,
    port: number,
): Promise<MulticastRound> {
    const node = process.execPath;
    const listening = await Promise.all(
        receivers.map((r) =>
            startBackground(argvIn(cluster, { pod: r }, [node, "-e", RECEIVER, group, String(port)]), (out) => out.includes("joined")),
        ),
    );
    try {
        await new Promise((r) => setTimeout(r, JOIN_SETTLE_MS));
        const sent = await run(
            argvIn(cluster, { pod: sender }, [node, "-e", SENDER, group, String(port), String(SEND_MS), String(SEND_EVERY_MS)]),
            { timeoutMs: SEND_MS + 10_000 },
        );
        if (sent.code !== 0) throw new Error(`the multicast sender in ${sender.pod} failed (${sent.code}): ${sent.stderr}`);
        await new Promise((r) => setTimeout(r, 500));
        const received = await Promise.all(
            listening.splice(0).map(async (l) => Number(/received (\d+)/.exec((await l.stop()).stdout)?.[1] ?? NaN)),
        );
        return { sent: Number(/sent (\d+)/.exec(sent.stdout)?.[1] ?? NaN), received };
    } finally {
        await Promise.all(listening.map((l) => l.stop("SIGKILL")));
    }
}
