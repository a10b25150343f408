// npm run demo -- [--pulumi-mode | --dual-stack | --os debian13] [N hosts, default 3]
// npm run demo -- --remove-pods      removes the demo's pods (and Service), e.g. before destroy
// The whole demonstration on one Linux machine (as root): a local cluster, the stack applied to it
// (`pulumi up` with a local backend when the Pulumi CLI is installed, otherwise the offline apply,
// which runs the same program through the SDK's program runner), pods on different nodes, a
// ping matrix, TCP between the pods and through the gateway.
// ovnkube mode (default): Debian unstable hosts with the local Kubernetes and ovn-kubernetes 1.3
// in its interconnect architecture (a zone per node); ovnkube realises the
// topology, Deployments (a pod on every node) and a ClusterIP Service are created through the API,
// the pods placed by the scheduler and attached by ovnkube's CNI. --pulumi-mode: Debian 12 hosts, Kubernetes disabled, the project writes the
// topology and the pods are attached by hand. --dual-stack: ovnkube mode on an underlay, API
// server, kubelets and stack in both families; the Service asks for both, and the checks run
// again over IPv6. --os debian13: ovnkube mode on Debian 13 hosts, whose OVN is too old for
// ovn-kubernetes 1.3, with OVN from the release's image (ovnkube.ovnSource image): each zone's OVN
// runs in its node's ovnkube-node pod, on the host's Open vSwitch 3.5.
import { spawnSync } from "child_process";
import { rmSync } from "fs";
import * as path from "path";
import { readStackFile } from "@ovn-kubernetes-as-code/cluster/config";
import { validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { containsIp, parseNetwork } from "@ovn-kubernetes-as-code/cluster/values";
import { buildClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { KubeClient } from "@ovn-kubernetes-as-code/lab/kubeclient";
import {
    defaultStackPath,
    down,
    exploreCommands,
    loadCluster,
    localPassphrase,
    up,
    writeLocalStack,
    type LocalCluster,
} from "@ovn-kubernetes-as-code/lab/localcluster";
import { removePulumiDemoPods, startPulumiDemoPods } from "@ovn-kubernetes-as-code/lab/localcluster";
import { CHECK_PORT, formatReport, overlayReport } from "@ovn-kubernetes-as-code/lab/localcluster";
import { formatIpv6Report, ipv6Report } from "@ovn-kubernetes-as-code/lab/localcluster";
import {
    createClusterIpsService,
    DEMO_APP_LABEL,
    DEMO_NAMESPACE,
    podRef,
    removeDemoWorkloads,
    startDemoDeployment,
} from "@ovn-kubernetes-as-code/lab/localcluster";
import { loadControlPlane } from "@ovn-kubernetes-as-code/lab/localcluster";
import { upWithKubernetes, type KubernetesLab } from "@ovn-kubernetes-as-code/lab/localcluster";
import { apply } from "@ovn-kubernetes-as-code/lab/offline";
import { opLine } from "@ovn-kubernetes-as-code/lab/offline";
import { elapsed, withProgress } from "./terminal/progress";
import { paint } from "./terminal/style";

const ROOT = path.resolve(__dirname, "..");
const STACK = "local";

function step(text: string) {
    console.log(`\n${paint(process.stdout, "bold", `== ${text}`)}`);
}

/** The demo's waits report on stdout, between its own lines, every 10 s. */
const PROGRESS = { write: (line: string) => console.log(line), every: 10_000 };

function hasPulumiCli(): boolean {
    return spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;
}

/** `pulumi up` against a local file backend under .local/pulumi, with the lab passphrase. */
function pulumiUp(): boolean {
    const env = {
        ...process.env,
        PULUMI_BACKEND_URL: `file://${path.join(ROOT, ".local", "pulumi")}`,
        PULUMI_CONFIG_PASSPHRASE: localPassphrase(),
    };
    spawnSync("mkdir", ["-p", path.join(ROOT, ".local", "pulumi")]);
    spawnSync("pulumi", ["stack", "select", "--create", STACK], { cwd: ROOT, env, stdio: "inherit" });
    return spawnSync("pulumi", ["up", "--yes", "--stack", STACK], { cwd: ROOT, env, stdio: "inherit" }).status === 0;
}

const DEMO_SERVICE = "demo-b";

/** Hosts, and in ovnkube mode their Kubernetes; writes the stack file. */
/** The demo's hosts in ovnkube mode: Debian unstable (OVN from its packages) or Debian 13 (OVN from the image). */
const DEMO_OS = { "debian-sid": "Debian unstable", debian13: "Debian 13" } as const;
type DemoOs = keyof typeof DEMO_OS;

async function bringUp(
    hosts: number,
    ovnkubeMode: boolean,
    dualStack: boolean,
    os: DemoOs,
): Promise<{ cluster: LocalCluster; kube?: KubernetesLab; stackFile: string }> {
    const fromImage = os === "debian13";
    step(
        ovnkubeMode
            ? `local cluster: ${hosts} ${DEMO_OS[os]} hosts (own roots, own sshd) and a Kubernetes v1.36 control plane, the upstream kubelet and containerd on every host${dualStack ? ", all in dual stack (an IPv6 underlay beside the IPv4 one)" : ""}${fromImage ? "; OVN from the release's image (ovnkube.ovnSource: image), on the hosts' own Open vSwitch" : ""}`
            : `local cluster: ${hosts} bare Debian 12 hosts (network namespaces with their own sshd)`,
    );
    await down(STACK);
    // Fresh hosts: whatever an earlier demo recorded about the old ones no longer exists.
    rmSync(path.join(ROOT, ".local", "state", `${STACK}.json`), { force: true });
    const { cluster, kubernetes: kube } = ovnkubeMode
        ? await upWithKubernetes({
              id: STACK,
              hosts,
              os,
              ipFamily: dualStack ? "dual" : undefined,
              log: (line) => console.log(`  ${line}`),
          })
        : { cluster: await up({ id: STACK, hosts }), kubernetes: undefined };
    for (const h of cluster.hosts) console.log(`  ${h.name}  ${[h.ip, h.ip6].filter(Boolean).join(" ")}  ${h.hostKeyFingerprint}`);
    console.log(
        `  outside world: namespace ${cluster.external.ns} at ${[cluster.external.ip, cluster.external.ip6].filter(Boolean).join(" ")}`,
    );
    const stackFile = writeLocalStack(
        cluster,
        undefined,
        kube && {
            kubernetes: { apiServerUrl: kube.controlPlane.apiServerUrl, kubeconfig: kube.controlPlane.adminKubeconfig.content },
            ...(fromImage && { ovnkube: { ovnSource: "image" as const } }),
        },
    );
    console.log(
        `  wrote ${path.relative(ROOT, stackFile)} (${ovnkubeMode ? `ovnkube mode${fromImage ? ", OVN from the image" : ""}` : "Pulumi mode"})`,
    );
    return { cluster, kube, stackFile };
}

async function applyStack(): Promise<boolean> {
    if (hasPulumiCli()) {
        step("pulumi up (local file backend)");
        return pulumiUp();
    }
    step(
        "apply: the Pulumi CLI is not installed, so the offline apply runs index.ts through the SDK's program runner (a stand-in for the engine; real clusters use pulumi up)",
    );
    const r = await apply({ stack: STACK, onOp: (o) => o.op !== "same" && console.log(`  ${opLine(o, false)}`) });
    console.log(
        `  ${r.counts.created} created, ${r.counts.updated} updated, ${r.counts.replaced} replaced in ${(r.ms / 1000).toFixed(1)} s`,
    );
    if (!r.ok) console.error(`apply failed: ${r.error}`);
    return r.ok;
}

/** The demo's Deployments: one pod on every node, and the Service's backend. */
const DEMO_DEPLOYMENTS = ["demo", DEMO_SERVICE] as const;

/**
 * ovnkube mode: a Deployment with a pod on every node and one more behind a ClusterIP Service,
 * placed by the scheduler and attached by ovnkube's CNI. The first pod returned is the checks'
 * client, on another node than the second, the Service's backend.
 */
async function kubernetesPods(cluster: LocalCluster, kube: KubernetesLab, dualStack: boolean) {
    step(
        `Deployments through the API, placed by the scheduler (one pod per node) and attached by ovnkube's CNI; a ${dualStack ? "RequireDualStack " : ""}ClusterIP Service in front of one`,
    );
    const client = KubeClient.fromKubeconfig(kube.controlPlane.adminKubeconfig.content);
    try {
        const command = ["sleep", "infinity"];
        const spread = await startDemoDeployment(client, cluster, { name: DEMO_DEPLOYMENTS[0], replicas: cluster.hosts.length, command });
        const [server] = await startDemoDeployment(client, cluster, { name: DEMO_SERVICE, replicas: 1, command });
        const serviceIps = await createClusterIpsService(client, {
            name: DEMO_SERVICE,
            selector: { [DEMO_APP_LABEL]: DEMO_SERVICE },
            port: CHECK_PORT,
            targetPort: CHECK_PORT,
            ...(dualStack && { ipFamilyPolicy: "RequireDualStack" as const }),
        });
        const first = spread.find((p) => p.node !== server.node)!;
        const pods = [first, server, ...spread.filter((p) => p !== first)];
        for (const p of pods) console.log(`  ${p.namespace}/${p.name} on ${p.node}: ${p.ips.join(" ")}`);
        console.log(`  service ${DEMO_NAMESPACE}/${DEMO_SERVICE}: ${serviceIps.join(" ")} port ${CHECK_PORT} → ${server.name}`);
        return { pods: pods.map((p) => ({ ...podRef(p), ip: p.ip, ips: p.ips })), serviceIp: serviceIps[0], serviceIp6: serviceIps[1] };
    } finally {
        client.close();
    }
}

/**
 * Removes what the demo created besides the stack: pods on the node switches are not the
 * stack's, and a node switch that still has them cannot be deleted by destroy. Safe to run twice.
 */
async function removeDemoPods(): Promise<number> {
    const cluster = loadCluster(STACK);
    const model = buildClusterModel(validateConfig(readStackFile(defaultStackPath(STACK))));
    step(`removing the demo's pods from local cluster ${STACK} (${model.writer} mode)`);
    if (model.writer === "ovnkube") {
        const client = KubeClient.fromKubeconfig(loadControlPlane(cluster).adminKubeconfig.content);
        try {
            await removeDemoWorkloads(
                client,
                cluster,
                [],
                [{ name: DEMO_SERVICE }],
                DEMO_DEPLOYMENTS.map((name) => ({ name })),
            );
            console.log(`  deleted deployments ${DEMO_DEPLOYMENTS.join(", ")} and service ${DEMO_NAMESPACE}/${DEMO_SERVICE}`);
        } finally {
            client.close();
        }
    } else {
        for (const removed of await removePulumiDemoPods(cluster, model)) console.log(`  removed ${removed}`);
    }
    console.log("  next: npm run offline -- destroy --stack local --yes   (or pulumi destroy -s local)");
    return 0;
}

async function main(argv: string[]): Promise<number> {
    if (argv.includes("--remove-pods"))
        return argv.length === 1 ? removeDemoPods() : (console.error("usage: npm run demo -- --remove-pods"), 2);
    const ovnkubeMode = !argv.includes("--pulumi-mode");
    const dualStack = argv.includes("--dual-stack");
    const osAt = argv.indexOf("--os");
    const os = osAt >= 0 ? argv[osAt + 1] : "debian-sid";
    const numbers = argv.filter((a, i) => a !== "--pulumi-mode" && a !== "--dual-stack" && i !== osAt && i !== osAt + 1);
    const hosts = Number(numbers[0] ?? 3);
    const badOs = !(os in DEMO_OS) || (osAt >= 0 && !ovnkubeMode);
    if (numbers.length > 1 || !Number.isInteger(hosts) || hosts < 2 || hosts > 16 || (dualStack && !ovnkubeMode) || badOs) {
        console.error("usage: npm run demo -- [--pulumi-mode | --dual-stack | --os debian13] [number of hosts, 2..16]");
        return 2;
    }
    const started = Date.now();
    const { cluster, kube, stackFile } = await withProgress(
        "local cluster",
        () => bringUp(hosts, ovnkubeMode, dualStack, os as DemoOs),
        PROGRESS,
    );
    if (!(await withProgress("apply", applyStack, PROGRESS))) return 1;

    const model = buildClusterModel(validateConfig(readStackFile(stackFile)));
    let pods;
    let serviceIp: string | undefined;
    let serviceIp6: string | undefined;
    let dualPods: Awaited<ReturnType<typeof kubernetesPods>>["pods"] | undefined;
    if (kube) {
        ({ pods, serviceIp, serviceIp6 } = await withProgress("pods", () => kubernetesPods(cluster, kube, dualStack), PROGRESS));
        dualPods = pods;
    } else {
        step("two pods on different nodes (CNI ADD by hand: veth on br-int, logical port <namespace>_<pod>)");
        pods = await startPulumiDemoPods(cluster, model);
        for (const p of pods) console.log(`  ${p.ifaceId} on ${p.node}: ${p.ip} (${p.mac}) via ${p.gatewayIp}`);
    }
    const planned = pods.every((p) => model.nodeNetworks.some((n) => n.node === p.node && containsIp(parseNetwork(n.subnet), p.ip)));
    console.log(
        `  pod addresses in their nodes' planned subnets: ${planned ? paint(process.stdout, "green", "ok") : paint(process.stdout, "red", "FAIL")}`,
    );

    step(
        `checks: ping matrix (rows ping columns), TCP between pods${serviceIp ? ", TCP to the Service" : ""}, TCP to the outside through the gateway`,
    );
    const report = await withProgress("checks", () => overlayReport(cluster, model, pods, serviceIp), PROGRESS);
    console.log(formatReport(report));
    let ipv6Ok = true;
    if (dualStack && dualPods) {
        step("the same over IPv6: ping6 matrix, TCP between pods, to the Service's IPv6 ClusterIP and to the outside");
        const r6 = await withProgress("IPv6 checks", () => ipv6Report(cluster, dualPods, serviceIp6), PROGRESS);
        console.log(formatIpv6Report(r6));
        ipv6Ok = r6.allOk;
    }

    step(`done in ${elapsed(Date.now() - started)}`);
    // The databases are reached inside the hosts that serve them: their sockets are in the hosts' namespaces.
    const where =
        model.architecture === "interconnect" ? "every node its own zone's databases" : `the central ${model.central!.host}'s databases`;
    console.log(`  explore:   npm run local -- status   (${where}:)`);
    for (const c of exploreCommands(STACK, model)) console.log(`             ${c.line}`);
    if (kube) console.log(`             KUBECONFIG=${kube.controlPlane.adminKubeconfig.path} kubectl get nodes,pods -A -o wide`);
    console.log(
        "  undo:      npm run demo -- --remove-pods, then npm run offline -- destroy --stack local --yes   (or pulumi destroy -s local)",
    );
    console.log("  tear down: npm run local -- down");
    return report.allOk && ipv6Ok && planned ? 0 : 1;
}

main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e) => {
        console.error(e instanceof Error ? e.message : e);
        process.exitCode = 1;
    },
);
