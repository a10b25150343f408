// The same-cluster check of ovnkube mode against two real Kubernetes control planes: apiServer.url
// written as kubeconfig's server passes without a read; another address of the same API server (a
// TCP load balancer in front of it) passes once both answer with one kube-system uid; the other
// cluster's API server is refused at check and create naming both servers and both uids; an
// address that answers nothing from here proves nothing and passes.
import assert from "node:assert/strict";
import * as net from "node:net";
import { after, before, test } from "node:test";
import { rememberProviderConfig } from "../../components/dynamic/providerConfig";
import { clusterIdentityCheckProvider } from "../../components/guard/clusterIdentityCheck";
import { startKubeLab, type KubeLab } from "../support/kubeControlPlane";

const KUBECONFIG = "ovn-kubernetes:kubeconfig";
let a: KubeLab;
let b: KubeLab;
let balancer: net.Server;
let balanced = 0;
let started = 0;

const uidOf = async (lab: KubeLab) =>
    (await lab.admin.get({ apiVersion: "v1", kind: "Namespace", name: "kube-system" })).metadata?.uid as string;

before(async () => {
    started = Date.now();
    a = await startKubeLab("clusida");
    b = await startKubeLab("clusidb");
    await rememberProviderConfig({
        config: { get: (k: string) => (k === KUBECONFIG ? a.controlPlane.adminKubeconfig.content : undefined) },
    } as never);
    // A load balancer that passes TLS through to cluster a's API server, at another address.
    const target = new URL(a.controlPlane.apiServerUrl);
    balancer = net.createServer((client) => {
        balanced++;
        const upstream = net.connect(Number(target.port), target.hostname);
        client.pipe(upstream).pipe(client);
        const close = () => (client.destroy(), upstream.destroy());
        client.on("error", close);
        upstream.on("error", close);
    });
    await new Promise<void>((done) => balancer.listen(0, "127.0.0.1", done));
});
after(async () => {
    balancer?.close();
    await b?.stop();
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
    const { port } = balancer.address() as net.AddressInfo;
    assert.deepEqual(await check(`https://127.0.0.1:${port}`), []);
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

test("an address that answers nothing from here proves nothing and passes", async () => {
    const closed = net.createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((done) => closed.close(() => done()));
    assert.deepEqual(await check(`https://127.0.0.1:${port}`), []);
});
