import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, test } from "node:test";
import YAML from "yaml";
import { validateConfig } from "../../components/plan/validate";
import { buildClusterModel } from "../../components/model/clusterModel";
import { SECRET_PRESENT } from "../../components/program/readConfig";
import { PassphraseSecrets } from "../../lab/offline/passphraseSecrets";
import { labCrdDir } from "../../lab/localcluster/labReleases";
import { stackConfig } from "../../lab/harness/configs";
import {
    LOCAL_LAB_PASSPHRASE,
    defaultStackPath,
    localPassphrase,
    localStackConfig,
    writeLocalStack,
} from "../../lab/localcluster/stackFile";
import { LocalCluster } from "../../lab/localcluster/state";
import { localClusterFixture } from "../support/localClusterFixture";

function fakeCluster(hosts: number, dir: string): LocalCluster {
    return localClusterFixture({ id: "unit", subnet: "172.31.40.0/24", hosts, dir });
}

const made: string[] = [];
const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lc-stack-"));
    made.push(dir);
    return dir;
};
after(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

test("the stack file lists the hosts with roles, pinned keys and a shared gateway on the last one", () => {
    const dir = tmp();
    const file = writeLocalStack(fakeCluster(3, dir), path.join(dir, "Pulumi.local.yaml"), { passphrase: "lab" });
    const doc = YAML.parse(fs.readFileSync(file, "utf8"));
    const c = doc.config;
    assert.deepEqual(
        c["ovn-kubernetes:nodes"].map((n: { name: string; roles: string[] }) => [n.name, n.roles]),
        [
            ["node1", ["central", "master"]],
            ["node2", ["node"]],
            ["node3", ["node", "gateway"]],
        ],
    );
    const n3 = c["ovn-kubernetes:nodes"][2];
    assert.equal(n3.address, "172.31.40.13");
    assert.equal(n3.tunnelIp, "172.31.40.13");
    assert.equal(n3.hostKey, "ssh-ed25519 AAAAkey2");
    assert.deepEqual(n3.gateway, {
        mode: "shared",
        interface: "eth0",
        bridge: "breth0",
        physicalIp: "172.31.40.13/24",
        defaultGateway: "172.31.40.1",
    });
    assert.equal(c["ovn-kubernetes:datapathType"], "netdev");
    assert.equal(c["ovn-kubernetes:encapType"], "geneve");
    assert.equal(c["ovn-kubernetes:mtu"], 1400);
    assert.deepEqual(c["ovn-kubernetes:apiServer"], { url: "http://172.31.40.11:8080" });
    assert.deepEqual(c["ovn-kubernetes:packages"], { skip: true });
    assert.deepEqual(c["ovn-kubernetes:kubernetes"], { enabled: false });
    assert.equal(c["ovn-kubernetes:clusterSubnet"], "10.128.0.0/14");
    assert.equal(c["ovn-kubernetes:serviceSubnet"], "172.30.0.0/16");
    // Every key is in the project's namespace.
    for (const key of Object.keys(c)) assert.match(key, /^ovn-kubernetes:[a-zA-Z]+$/);
});

test("the SSH private key is a Pulumi secret that decrypts with the stack's passphrase only", () => {
    const dir = tmp();
    const cluster = fakeCluster(2, dir);
    const file = writeLocalStack(cluster, path.join(dir, "Pulumi.local.yaml"), { passphrase: "lab" });
    const text = fs.readFileSync(file, "utf8");
    assert.equal(text.includes("PRIVATE KEY"), false, "no plaintext key in the file");
    const doc = YAML.parse(text);
    const secure = doc.config["ovn-kubernetes:sshPrivateKey"].secure;
    assert.equal(PassphraseSecrets.open("lab", doc.encryptionsalt).decrypt(secure), fs.readFileSync(cluster.privateKeyPath, "utf8"));
    assert.throws(() => PassphraseSecrets.open("not-lab", doc.encryptionsalt), /incorrect passphrase/);
    assert.equal(fs.statSync(file).mode & 0o077, 0, "readable by its owner only");

    // Rewriting keeps the salt (so Pulumi's state and the file agree) but not with another passphrase.
    writeLocalStack(cluster, file, { passphrase: "lab" });
    assert.equal(YAML.parse(fs.readFileSync(file, "utf8")).encryptionsalt, doc.encryptionsalt);
    writeLocalStack(cluster, file, { passphrase: "other" });
    assert.notEqual(YAML.parse(fs.readFileSync(file, "utf8")).encryptionsalt, doc.encryptionsalt);
});

test("a single host carries every role; ranges that overlap the underlay are refused", () => {
    const cluster = fakeCluster(1, tmp());
    assert.deepEqual(localStackConfig(cluster).nodes[0].roles, ["central", "master", "node", "gateway"]);
    assert.throws(() => localStackConfig(cluster, { clusterSubnet: "172.31.0.0/16" }), /clusterSubnet 172\.31\.0\.0\/16 overlaps/);
    assert.throws(() => localStackConfig({ ...cluster, subnet: "100.64.7.0/24" }), /joinSubnet/);
});

test("node settings go over what the lab writes for the named nodes only; a name that is no host is refused", () => {
    const cluster = fakeCluster(3, tmp());
    const config = localStackConfig(cluster, { nodeSettings: { node2: { tunnelInterface: "eth1" } } });
    assert.deepEqual(
        config.nodes.map((n) => n.tunnelInterface),
        ["eth0", "eth1", "eth0"],
    );
    assert.throws(
        () => localStackConfig(cluster, { nodeSettings: { node9: {} } }),
        /nodeSettings: node9 not among local cluster .*'s hosts/,
    );
});

test("ovnkube mode: interconnect unless told, no node central, the cluster's release with its CRDs from the lab's copies; a valid stack", () => {
    const base = fakeCluster(3, tmp());
    // Key lines validation takes (the dev stack's), so that the whole stack validates.
    const keys = (stackConfig("dev").nodes as Array<{ hostKey: string }>).map((n) => n.hostKey);
    const cluster: LocalCluster = {
        ...base,
        hosts: base.hosts.map((h, i) => ({ ...h, hostKeyLine: keys[i] })),
        ovnKubernetes: { release: "1.3", image: "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:release-1.3", kubelet: true },
    };
    const kubernetes = { apiServerUrl: "https://172.31.40.2:6443", kubeconfig: "apiVersion: v1\nkind: Config\n" };
    const valid = (c: ReturnType<typeof localStackConfig>) =>
        validateConfig({ ...c, sshPrivateKey: SECRET_PRESENT, kubeconfig: SECRET_PRESENT } as never);

    const ic = localStackConfig(cluster, { kubernetes });
    assert.deepEqual(
        ic.nodes.map((n) => n.roles),
        [["master"], ["node"], ["node"]],
    );
    assert.deepEqual(ic.kubernetes, { enabled: true });
    // The control plane runs on no host: it calls ovnkube-identity's webhook at the master's address.
    assert.deepEqual(ic.ovnkube, {
        version: "1.3",
        crdMirror: `file://${labCrdDir("1.3")}/`,
        identity: { webhookAddress: cluster.hosts[0].ip },
    });
    const model = buildClusterModel(valid(ic));
    assert.equal(model.architecture, "interconnect");
    assert.deepEqual(model.kube.identity, {
        webhookAddress: cluster.hosts[0].ip,
        listen: "node",
        bootstrapKubeconfig: "/etc/kubernetes/kubelet.conf",
    });
    assert.deepEqual(
        model.hosts.map((h) => h.zone),
        ["node1", "node2", "node3"],
    );
    assert.ok(model.kube.crdUrls.every((u) => u.startsWith(`file://${labCrdDir("1.3")}/k8s.ovn.org_`)));

    const centralized = localStackConfig(cluster, { kubernetes, ovnkube: { architecture: "centralized" } });
    assert.deepEqual(
        centralized.nodes.map((n) => n.roles),
        [["central", "master"], ["node"], ["node"]],
    );
    assert.equal(centralized.ovnkube?.architecture, "centralized");
    assert.equal(buildClusterModel(valid(centralized)).central?.host, "node1");

    // The stack file carries it, and Pulumi mode carries none.
    const dir = tmp();
    const doc = YAML.parse(
        fs.readFileSync(writeLocalStack(cluster, path.join(dir, "Pulumi.local.yaml"), { passphrase: "lab", kubernetes }), "utf8"),
    );
    assert.deepEqual(doc.config["ovn-kubernetes:ovnkube"], ic.ovnkube);
    assert.ok(doc.config["ovn-kubernetes:kubeconfig"].secure);
    assert.equal(localStackConfig(cluster).ovnkube, undefined);
});

test("the passphrase comes from the environment as Pulumi reads it, else the lab passphrase", () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "pass"), "from-file\n");
    assert.equal(localPassphrase({}), LOCAL_LAB_PASSPHRASE);
    assert.equal(localPassphrase({ PULUMI_CONFIG_PASSPHRASE: "env" }), "env");
    assert.equal(localPassphrase({ PULUMI_CONFIG_PASSPHRASE_FILE: path.join(dir, "pass") }), "from-file");
    assert.equal(localPassphrase({ PULUMI_CONFIG_PASSPHRASE: "", PULUMI_CONFIG_PASSPHRASE_FILE: path.join(dir, "pass") }), "");
    assert.match(defaultStackPath("local"), /stacks\/Pulumi\.local\.yaml$/);
    assert.match(defaultStackPath("lab2"), /stacks\/Pulumi\.local-lab2\.yaml$/);
});
