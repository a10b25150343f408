// The benchmarks' NB servers: fresh ones on demand, all removed at the end, and the row counts
// of the topology tables read over the local socket (two runs built the same topology when their
// counts are equal).
import * as net from "net";
import { NB_DB, NB_TABLES } from "@ovn-kubernetes-as-code/cluster/nb";
import { OvsdbClient } from "@ovn-kubernetes-as-code/cluster/ovsdb";
import { select } from "@ovn-kubernetes-as-code/cluster/ovsdb";
import { startNbServer, type NbServer } from "@ovn-kubernetes-as-code/lab/harness";

export async function localNb(nb: NbServer): Promise<OvsdbClient> {
    const socket = net.connect({ path: nb.socket });
    await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    return new OvsdbClient(socket, { label: "bench" });
}

export async function rowCounts(nb: NbServer): Promise<string> {
    const client = await localNb(nb);
    const results = await client.transact(
        NB_DB,
        NB_TABLES.map((t) => select(t, [], ["_uuid"])),
    );
    client.close();
    return NB_TABLES.map((t, i) => `${t.replace("Logical_", "").replace("_Static", "")} ${results[i].rows.length}`).join(", ");
}

/** Fresh NB servers on demand; `release` removes every one started so far. */
export function nbServerPool(): { fresh(): Promise<NbServer>; release(): Promise<void> } {
    const servers: NbServer[] = [];
    return {
        async fresh() {
            const nb = await startNbServer();
            servers.push(nb);
            return nb;
        },
        async release() {
            for (const s of servers.splice(0)) await s.cleanup();
        },
    };
}
