// Benchmark: the NB topology of N nodes applied through the providers (check + create per
// resource, 16 at a time, the serialized provider text; see ./providers) into a single central
// and into a 3-member clustered central, on the same three local hosts (real sshd, real
// ovsdb-servers started by the project's own central scripts), printed side by side as a ratio.
//
//   node --import tsx bench/nbCluster.ts [N]        (default 500; needs root, as the local cluster does)
import * as fs from "node:fs";
import * as path from "node:path";
import { tmpdir } from "node:os";
import { readStackFile } from "@ovn-kubernetes-as-code/cluster/config";
import { validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { centralMemberScript, centralScript } from "@ovn-kubernetes-as-code/cluster/hosts";
import { buildClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { closeNbSessions } from "@ovn-kubernetes-as-code/cluster/nb";
import { nbConnection } from "@ovn-kubernetes-as-code/cluster/program";
import { closeOvsdbPool } from "@ovn-kubernetes-as-code/cluster/ssh";
import { closeSshPool } from "@ovn-kubernetes-as-code/cluster/ssh";
import { down, hostExec, LOCAL_LAB_PASSPHRASE, up, writeLocalStack, type LocalCluster } from "@ovn-kubernetes-as-code/lab/localcluster";
import { createAll, loadProviders } from "./providers";
import { resources } from "./topology";
import { scaleModel } from "@ovn-kubernetes-as-code/lab/harness";

const ID = "habench";
const OWNER = "ovn-kubernetes/bench";

async function sh(cluster: LocalCluster, host: string, script: string): Promise<void> {
    const r = await hostExec(cluster, host, ["bash", "-c", script]);
    if (r.code !== 0) throw new Error(`${host}: ${r.stderr.slice(-2000)}`);
}

/** Stops the central's daemons and removes its databases: the next phase starts from nothing. */
const WIPE =
    "ctl=/usr/share/ovn/scripts/ovn-ctl; $ctl stop_northd; $ctl stop_nb_ovsdb; $ctl stop_sb_ovsdb; rm -f /var/lib/ovn/*.db /var/lib/ovn/.*.db.~lock~";

function modelFor(cluster: LocalCluster, work: string, centrals: number) {
    const file = writeLocalStack(cluster, path.join(work, `Pulumi.${centrals}.yaml`), { passphrase: LOCAL_LAB_PASSPHRASE, centrals });
    return buildClusterModel(validateConfig(readStackFile(file)));
}

async function main(): Promise<void> {
    const n = Number(process.argv[2] ?? 500);
    const work = fs.mkdtempSync(path.join(tmpdir(), "habench-"));
    await down(ID);
    const cluster = await up({ id: ID, hosts: 3 });
    try {
        const key = fs.readFileSync(cluster.privateKeyPath, "utf8");
        const providers = await loadProviders();
        const topology = resources(
            scaleModel(n - 1, 3),
            Object.fromEntries(
                scaleModel(n - 1, 3).gateways.map((g, i) => [
                    g.node,
                    { systemId: `chassis-${i}`, macAddress: `52:54:00:00:00:${String(i + 10)}` },
                ]),
            ),
        );
        const times: Record<string, number> = {};
        for (const centrals of [1, 3]) {
            const model = modelFor(cluster, work, centrals);
            const hosts = model.hosts.filter((h) => h.isCentral);
            for (const h of hosts) await sh(cluster, h.name, WIPE);
            if (centrals === 1) await sh(cluster, hosts[0].name, centralScript(model.central!).create);
            else for (const h of hosts) await sh(cluster, h.name, centralMemberScript(model.central!, h.name).create);
            closeNbSessions();
            closeOvsdbPool();
            closeSshPool();
            const common = { nb: nbConnection(hosts[0], { privateKey: key }, hosts), owner: OWNER };
            const start = process.hrtime.bigint();
            await createAll(providers, common, topology, 16);
            times[centrals] = Number(process.hrtime.bigint() - start) / 1e9;
            const count = await hostExec(cluster, hosts[0].name, [
                "ovn-nbctl",
                "--no-leader-only",
                "--timeout=60",
                "--bare",
                "--columns=_uuid",
                "list",
                "Logical_Switch",
            ]);
            console.log(
                `${centrals === 1 ? "single central" : "3-member cluster"}: ${1 + topology.rest.length} resources (${count.stdout.split("\n").filter(Boolean).length} logical switches) in ${times[centrals].toFixed(2)} s`,
            );
            for (const h of hosts) await sh(cluster, h.name, WIPE);
        }
        console.log(`ratio: 3-member cluster / single central = ${(times[3] / times[1]).toFixed(2)}x`);
    } finally {
        closeNbSessions();
        closeOvsdbPool();
        closeSshPool();
        await down(ID);
        fs.rmSync(work, { recursive: true, force: true });
    }
}

main().then(
    () => process.exit(0),
    (err) => {
        console.error(err);
        process.exit(1);
    },
);
