// npm run demo -- [N hosts, default 3]
// The whole demonstration on one Linux machine (as root): a local cluster of bare hosts, the stack
// applied to them (`pulumi up` with a local backend when the Pulumi CLI is installed, otherwise
// the offline apply, which runs the same program through the SDK's program runner), two pods on
// different nodes, a ping matrix, TCP between the pods and through the gateway.
import { spawnSync } from "child_process";
import { rmSync } from "fs";
import * as path from "path";
import { readStackFile } from "../components/config/stackFile";
import { validateConfig } from "../components/config/validate";
import { buildClusterModel } from "../components/model/cluster";
import { down, localPassphrase, startPod, up, writeLocalStack } from "../localcluster";
import { formatReport, overlayReport } from "../localcluster/checks";
import { apply } from "../offline/api";
import { opLine } from "../offline/summary";

const ROOT = path.resolve(__dirname, "..");
const STACK = "local";

function step(text: string) {
    console.log(`\n== ${text}`);
}

function hasPulumiCli(): boolean {
    return spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;
}

/** `pulumi up` against a local file backend under .local/pulumi, with the lab passphrase. */
function pulumiUp(): boolean {
    const env = { ...process.env, PULUMI_BACKEND_URL: `file://${path.join(ROOT, ".local", "pulumi")}`, PULUMI_CONFIG_PASSPHRASE: localPassphrase() };
    spawnSync("mkdir", ["-p", path.join(ROOT, ".local", "pulumi")]);
    spawnSync("pulumi", ["stack", "select", "--create", STACK], { cwd: ROOT, env, stdio: "inherit" });
    return spawnSync("pulumi", ["up", "--yes", "--stack", STACK], { cwd: ROOT, env, stdio: "inherit" }).status === 0;
}

async function main(argv: string[]): Promise<number> {
    const hosts = Number(argv[0] ?? 3);
    if (!Number.isInteger(hosts) || hosts < 2 || hosts > 16) {
        console.error("usage: npm run demo -- [number of hosts, 2..16]");
        return 2;
    }
    const started = Date.now();
    step(`local cluster: ${hosts} bare hosts (network namespaces with their own sshd)`);
    await down(STACK);
    // Fresh hosts: whatever an earlier demo recorded about the old ones no longer exists.
    rmSync(path.join(ROOT, ".local", "state", `${STACK}.json`), { force: true });
    const cluster = await up({ id: STACK, hosts });
    for (const h of cluster.hosts) console.log(`  ${h.name}  ${h.ip}  ${h.hostKeyFingerprint}`);
    console.log(`  outside world: namespace ${cluster.external.ns} at ${cluster.external.ip}`);
    const stackFile = writeLocalStack(cluster);
    console.log(`  wrote ${path.relative(ROOT, stackFile)}`);

    if (hasPulumiCli()) {
        step("pulumi up (local file backend)");
        if (!pulumiUp()) return 1;
    } else {
        step("apply: the Pulumi CLI is not installed, so the offline apply runs index.ts through the SDK's program runner (a stand-in for the engine; real clusters use pulumi up)");
        const r = await apply({ stack: STACK, onOp: (o) => o.op !== "same" && console.log(`  ${opLine(o, false)}`) });
        console.log(`  ${r.counts.created} created, ${r.counts.updated} updated, ${r.counts.replaced} replaced in ${(r.ms / 1000).toFixed(1)} s`);
        if (!r.ok) {
            console.error(`apply failed: ${r.error}`);
            return 1;
        }
    }

    const model = buildClusterModel(validateConfig(readStackFile(stackFile)));
    step("two pods on different nodes (CNI ADD: veth on br-int, logical port <namespace>_<pod>)");
    const pods = [
        await startPod(cluster, model, cluster.hosts[0].name, "demo", "pod-a", 10),
        await startPod(cluster, model, cluster.hosts[1].name, "demo", "pod-b", 10),
    ];
    for (const p of pods) console.log(`  ${p.ifaceId} on ${p.node}: ${p.ip} (${p.mac}) via ${p.gatewayIp}`);

    step("checks: ping matrix (rows ping columns), TCP between pods, TCP to the outside through the gateway");
    const report = await overlayReport(cluster, model, pods);
    console.log(formatReport(report));

    step(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(`  explore:   npm run local -- status   |  ovn-nbctl --db=${model.nbAddress} show   |  ovn-sbctl --db=${model.sbAddress} show`);
    console.log("  undo:      npm run offline -- destroy --stack local --yes   (or pulumi destroy -s local)");
    console.log("  tear down: npm run local -- down");
    return report.allOk ? 0 : 1;
}

main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e) => {
        console.error(e instanceof Error ? e.message : e);
        process.exitCode = 1;
    },
);
