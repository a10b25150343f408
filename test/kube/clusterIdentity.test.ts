// The same-cluster check of ovnkube mode against two real Kubernetes control planes issued by one
// CA (one PKI for two clusters: TLS and the admin's certificate pass at both, only the uid tells
// them apart): apiServer.url written as kubeconfig's server passes without a read; another address
// of the same API server (a TCP load balancer in front of it) passes once both answer with one
// kube-system uid; the other cluster's API server is refused at check and create naming both
// servers and both uids; a balancer at an address the certificate does not name is refused as
// ovnkube's TLS would refuse it; an address that answers nothing from here proves nothing.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { rememberProviderConfig } from "../../components/dynamic/providerConfig";
import { clusterIdentityCheckProvider } from "../../components/guard/clusterIdentityCheck";
import { KubeClient } from "../../lab/kubeclient";
import { down, up } from "../../lab/localcluster";
import { controlPlaneLayout, startControlPlane, stopControlPlane, type ControlPlane } from "../../lab/localcluster/kube";
import { SERVICE_SUBNET, startKubeLab, type KubeLab } from "../support/kubeControlPlane";

const KUBECONFIG = "ovn-kubernetes:kubeconfig";
let a: KubeLab;
let b: { controlPlane: ControlPlane; admin: KubeClient };
/** Load balancers passing TLS through to cluster a's API server: at an address its certificate names, and at one it does not. */
let balancer: net.Server;
let unnamed: net.Server;
let balanced = 0;
let started = 0;

const uidOf = async (lab: { admin: KubeClient }) =>
    (await lab.admin.get({ apiVersion: "v1", kind: "Namespace", name: "kube-system" })).metadata?.uid as string;

/** Cluster b: its own control plane, its certificates issued by cluster a's CA (the PKI seeded before it starts). */
async function startSharedPkiCluster(id: string) {
    await down(id);
    const cluster = await up({ id, hosts: 1 });
    const from = controlPlaneLayout(a.cluster.id).pkiDir;
    const to = controlPlaneLayout(id).pkiDir;
    fs.mkdirSync(to, { recursive: true, mode: 0o700 });
    for (const f of ["ca.crt", "ca.key", "ca.pub"]) fs.copyFileSync(path.join(from, f), path.join(to, f));
    const controlPlane = await startControlPlane(cluster, { serviceSubnets: [SERVICE_SUBNET], log: () => undefined });
    return { controlPlane, admin: KubeClient.fromKubeconfig(controlPlane.adminKubeconfig.content) };
}

function passThrough(host: string): Promise<net.Server> {
    const target = new URL(a.controlPlane.apiServerUrl);
    const server = net.createServer((client) => {
        balanced++;
        const upstream = net.connect(Number(target.port), target.hostname);
        client.pipe(upstream).pipe(client);
        const close = () => (client.destroy(), upstream.destroy());
        client.on("error", close);
        upstream.on("error", close);
    });
    return new Promise((done) => server.listen(0, host, () => done(server)));
}
const urlOf = (server: net.Server) => {
    const { address, port } = server.address() as net.AddressInfo;
    return `https://${address}:${port}`;
};

before(async () => {
    started = Date.now();
    a = await startKubeLab("clusida");
    b = await startSharedPkiCluster("clusidb");
    await rememberProviderConfig({
        config: { get: (k: string) => (k === KUBECONFIG ? a.controlPlane.adminKubeconfig.content : undefined) },
    } as never);
    balancer = await passThrough("127.0.0.1");
    unnamed = await passThrough("127.0.0.2");
});
after(async () => {
    balancer?.close();
    unnamed?.close();
    b?.admin.close();
    await stopControlPlane("clusidb");
    await down("clusidb");
    await a?.stop();
    console.log(
        `# cluster identity checks: ${((Date.now() - started) / 1000).toFixed(1)} s with both control planes' bring-up and teardown`,
    );
});

const inputs = (apiServerUrl: string) => ({ apiServerUrl, kubeconfigConfig: KUBECONFIG });
const check = async (apiServerUrl: string) => (await clusterIdentityCheckProvider.check!({}, inputs(apiServerUrl))).failures ?? [];

test("apiServer.url written as the kubeconfig's server passes without asking the cluster", async () => {
    const url = a.controlPlane.apiServerUrl;
    assert.deepEqual(await check(url), []);
    assert.deepEqual(await check(url.replace(/\/?$/, "/")), [], "a trailing slash is the same endpoint");
});

test("another address of the same API server (a load balancer) passes: both answer with one kube-system uid", async () => {
    const before = balanced;
    assert.deepEqual(await check(urlOf(balancer)), []);
    assert.ok(balanced > before, "the check asked the cluster through the balancer");
});

test("the other cluster's API server is refused at check and create, naming both servers and both uids, and no credential", async () => {
    const [uidA, uidB] = [await uidOf(a), await uidOf(b)];
    assert.notEqual(uidA, uidB);
    const other = b.controlPlane.apiServerUrl;
    const failures = await check(other);
    assert.equal(failures.length, 1);
    assert.equal(failures[0].property, "apiServerUrl");
    const reason = failures[0].reason;
    assert.equal(
        reason,
        `apiServer.url ${other} is another cluster than kubeconfig's server ${a.controlPlane.apiServerUrl} (kube-system uid ${uidB}, not ${uidA}): ` +
            `ovnkube would join one cluster while the stack's objects go to the other; set apiServer.url to an address of the API server kubeconfig names, or use the kubeconfig of the cluster at ${other}`,
    );
    const secretLines = a.controlPlane.adminKubeconfig.content.split("\n").filter((l) => /-data:/.test(l));
    for (const line of secretLines) assert.ok(!reason.includes(line.split(":")[1].trim().slice(0, 40)), "no credential in the refusal");
    await assert.rejects(clusterIdentityCheckProvider.create!(inputs(other)), { message: reason });
});

test("a balancer at an address the API server's certificate does not name is refused, as ovnkube's TLS would refuse it", async () => {
    const url = urlOf(unnamed);
    assert.deepEqual(await check(url), [
        {
            property: "apiServerUrl",
            reason:
                `apiServer.url ${url} is not proven to be the cluster kubeconfig writes to (${a.controlPlane.apiServerUrl}): its certificate does not name that address; ` +
                `ovnkube would join the cluster there while the stack's objects go to the other; set apiServer.url to an address of the API server kubeconfig names, or use the kubeconfig of the cluster at ${url}`,
        },
    ]);
});

test("an address that answers nothing from here proves nothing and passes", async () => {
    const closed = net.createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((done) => closed.close(() => done()));
    assert.deepEqual(await check(`https://127.0.0.1:${port}`), []);
});
