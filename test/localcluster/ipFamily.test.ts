// The local cluster's IP families: the IPv6 underlay beside the IPv4 one, the control plane's and
// kubelets' command lines and certificates, and the stack file's form in each family. Pure parts.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, test } from "node:test";
import YAML from "yaml";
import { controlPlaneAddress, ipv6Subnet, ipv6Twin, planAddresses, planAddresses6, spareAddress } from "../../lab/localcluster/addressing";
import { localClusterFixture } from "../support/localClusterFixture";
import { checkIpFamily, perFamily } from "../../lab/localcluster/ipFamily";
import { knownHosts } from "../../lab/localcluster/keys";
import { apiServerArgv, type ControlPlaneFiles } from "../../lab/localcluster/kube/flags";
import { apiServerSans, kubernetesServiceIp } from "../../lab/localcluster/kube/credentials";
import { apiServerUrl } from "../../lab/localcluster/kube/layout";
import { leafExtensions } from "../../lab/localcluster/kube/pki";
import { controlPlaneAddresses } from "../../lab/localcluster/kube/controlPlane";
import { kubeletArgv } from "../../lab/localcluster/node/config";
import { sshdConfig, OWN_ROOT_SSHD_FILES } from "../../lab/localcluster/sshd";
import { localStackConfig, writeLocalStack } from "../../lab/localcluster/stackFile";
import { hostIps, hostPrimaryIp, type LocalCluster } from "../../lab/localcluster/state";
import { clusterIpServiceManifest, runningPodStatus } from "../../lab/localcluster/kubeWorkloads";
import { ping } from "../../lab/localcluster/pods";
import { validateConfig } from "../../components/plan/validate";
import { buildClusterModel } from "../../components/model/clusterModel";
import { SECRET_PRESENT } from "../../components/program/readConfig";
import { stackConfig } from "../../lab/harness/configs";
import type { IpFamily } from "../../lab/localcluster/ipFamily";

const made: string[] = [];
after(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A cluster as `up --ip-family` records it. */
function cluster(ipFamily: IpFamily, hosts = 3): LocalCluster {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lc-family-"));
    made.push(dir);
    const ovnKubernetes = { release: "1.3", image: "lab/ovn-kubernetes:1.3", kubelet: true } as const;
    return localClusterFixture({ id: "fam", subnet: "172.31.7.0/24", hosts, dir, ipFamily, ovnKubernetes });
}

const kubernetes = { apiServerUrl: "https://172.31.7.2:6443", kubeconfig: "apiVersion: v1\nkind: Config\n" };

test("the IPv6 underlay is a ULA /64 named after the IPv4 one, each address the twin of the IPv4 one at the same offset", () => {
    const v4 = planAddresses("172.31.7.0/24", 3);
    assert.deepEqual(planAddresses6(v4), {
        subnet: "fd00:172:31:7::/64",
        prefixLen: 64,
        external: "fd00:172:31:7::1",
        operator: "fd00:172:31:7::254",
        hosts: ["fd00:172:31:7::11", "fd00:172:31:7::12", "fd00:172:31:7::13"],
    });
    // Canonical text (RFC 5952), as the kernel and Kubernetes print it: a zero group is compressed.
    assert.equal(ipv6Subnet("172.31.0.0/24"), "fd00:172:31::/64");
    // A larger underlay: the offset, not the last octet, so no two hosts share an address.
    assert.equal(ipv6Twin("172.31.0.0/16", "172.31.1.11"), "fd00:172:31::267");
    assert.equal(ipv6Twin("172.31.7.0/24", controlPlaneAddress("172.31.7.0/24")), "fd00:172:31:7::2");
    assert.equal(ipv6Twin("172.31.7.0/24", spareAddress("172.31.7.0/24", 1)), "fd00:172:31:7::3");
    assert.throws(() => ipv6Twin("172.31.7.0/24", "172.31.8.1"), /172\.31\.8\.1 is not in the underlay 172\.31\.7\.0\/24/);
});

test("families: ipv4, dual (IPv4 first) or ipv6; anything else is refused naming the choices", () => {
    assert.deepEqual(perFamily("ipv4", "a", "b"), ["a"]);
    assert.deepEqual(perFamily("dual", "a", "b"), ["a", "b"]);
    assert.deepEqual(perFamily("ipv6", "a", "b"), ["b"]);
    assert.throws(() => checkIpFamily("IPv6"), /ip family "IPv6": use ipv4, dual, ipv6/);
    const dual = cluster("dual");
    assert.deepEqual(hostIps(dual, dual.hosts[0]), ["172.31.7.11", "fd00:172:31:7::11"]);
    const v6 = cluster("ipv6");
    assert.equal(hostPrimaryIp(v6, v6.hosts[1]), "fd00:172:31:7::12");
    const v4 = cluster("ipv4");
    assert.deepEqual(hostIps(v4, v4.hosts[2]), ["172.31.7.13"]);
});

test("sshd listens on the host's address of each family; known_hosts pins the key at both", () => {
    const config = sshdConfig(OWN_ROOT_SSHD_FILES, ["172.31.7.11", "fd00:172:31:7::11"]);
    assert.match(config, /^ListenAddress 172\.31\.7\.11\nListenAddress fd00:172:31:7::11\nPort 22\n/);
    const c = cluster("dual", 1);
    assert.equal(knownHosts(c.hosts), "172.31.7.11,fd00:172:31:7::11 ssh-ed25519 AAAAkey0\n");
    assert.equal(knownHosts(cluster("ipv4", 1).hosts), "172.31.7.11 ssh-ed25519 AAAAkey0\n");
});

const files: ControlPlaneFiles = {
    caCert: "/ca.crt",
    caKey: "/ca.key",
    apiServerCert: "/a.crt",
    apiServerKey: "/a.key",
    apiServerKubeletClientCert: "/k.crt",
    apiServerKubeletClientKey: "/k.key",
    serviceAccountKey: "/sa.key",
    serviceAccountPublicKey: "/sa.pub",
    controllerManagerKubeconfig: "/cm",
    schedulerKubeconfig: "/s",
};
const flag = (argv: string[], name: string) => argv.filter((a) => a.startsWith(`--${name}=`));

test("the API server: both service ranges in the stack's order, listening on both families, advertising the primary", () => {
    const ipv4 = apiServerArgv("/kube-apiserver", files, { addresses: ["172.31.7.2"] }, ["172.30.0.0/16"]);
    assert.deepEqual(flag(ipv4, "bind-address"), ["--bind-address=172.31.7.2"]);
    assert.deepEqual(flag(ipv4, "advertise-address"), ["--advertise-address=172.31.7.2"]);
    assert.deepEqual(flag(ipv4, "service-cluster-ip-range"), ["--service-cluster-ip-range=172.30.0.0/16"]);

    const dual = cluster("dual");
    assert.deepEqual(controlPlaneAddresses(dual), ["172.31.7.2", "fd00:172:31:7::2"]);
    const argv = apiServerArgv("/kube-apiserver", files, { addresses: controlPlaneAddresses(dual) }, [
        "172.30.0.0/16",
        "fd00:172:30::/112",
    ]);
    assert.deepEqual(flag(argv, "bind-address"), ["--bind-address=::"]);
    assert.deepEqual(flag(argv, "advertise-address"), ["--advertise-address=172.31.7.2"]);
    assert.deepEqual(flag(argv, "service-cluster-ip-range"), ["--service-cluster-ip-range=172.30.0.0/16,fd00:172:30::/112"]);

    const v6 = cluster("ipv6");
    assert.deepEqual(controlPlaneAddresses(v6), ["fd00:172:31:7::2"]);
    assert.equal(apiServerUrl(controlPlaneAddresses(v6)[0]), "https://[fd00:172:31:7::2]:6443");
    const v6argv = apiServerArgv("/kube-apiserver", files, { addresses: controlPlaneAddresses(v6) }, ["fd00:172:30::/112"]);
    assert.deepEqual(flag(v6argv, "advertise-address"), ["--advertise-address=fd00:172:31:7::2"]);
    assert.deepEqual(flag(v6argv, "bind-address"), ["--bind-address=::"]);
});

test("the API server's certificate names its address and the kubernetes Service's in every family", () => {
    assert.equal(kubernetesServiceIp("172.30.0.0/16"), "172.30.0.1");
    assert.equal(kubernetesServiceIp("fd00:172:30::/112"), "fd00:172:30::1");
    const sans = apiServerSans(["172.31.7.2", "fd00:172:31:7::2"], ["172.30.0.0/16", "fd00:172:30::/112"]);
    assert.deepEqual(sans.ipAddresses, ["172.31.7.2", "fd00:172:31:7::2", "127.0.0.1", "172.30.0.1", "fd00:172:30::1"]);
    const ext = leafExtensions({ commonName: "kube-apiserver", usage: "server", ipAddresses: sans.ipAddresses });
    assert.ok(ext.includes("subjectAltName=IP:172.31.7.2,IP:fd00:172:31:7::2,IP:127.0.0.1,IP:172.30.0.1,IP:fd00:172:30::1"));
    // Only canonical text reaches openssl: nothing it could read as another option.
    for (const bad of ["fd00:172:31:7:0::2", "fd00::2,DNS:evil", "::ffff:1.2.3.4x"])
        assert.throws(() => leafExtensions({ commonName: "x", usage: "server", ipAddresses: [bad] }), /invalid IP address/);
});

test("the kubelet's --node-ip carries one address per family, the primary first", () => {
    const argv = (nodeIps: string[]) => kubeletArgv({ bin: "/k", nodeName: "node1", nodeIps, kubeconfig: "/kc" });
    assert.deepEqual(flag(argv(["172.31.7.11", "fd00:172:31:7::11"]), "node-ip"), ["--node-ip=172.31.7.11,fd00:172:31:7::11"]);
    assert.deepEqual(flag(argv(["fd00:172:31:7::11"]), "node-ip"), ["--node-ip=fd00:172:31:7::11"]);
});

test("the stack file: dual stack writes both families of each range and the node IPs joined by a comma; IPv6-only writes IPv6 and reaches hosts over IPv6", () => {
    const dual = cluster("dual");
    const d = localStackConfig(dual, { kubernetes });
    assert.equal(d.clusterSubnet, "10.128.0.0/14,fd00:10:128::/48");
    assert.equal(d.serviceSubnet, "172.30.0.0/16,fd00:172:30::/112");
    assert.deepEqual(
        d.nodes.map((n) => [n.address, n.tunnelIp, n.nodeIp]),
        dual.hosts.map((h) => [h.ip, h.ip, `${h.ip},${h.ip6}`]),
    );
    assert.deepEqual(d.ovnkube?.identity, { webhookAddress: "172.31.7.11" });

    const v6 = cluster("ipv6");
    const s = localStackConfig(v6, { kubernetes });
    assert.equal(s.clusterSubnet, "fd00:10:128::/48");
    assert.equal(s.serviceSubnet, "fd00:172:30::/112");
    assert.deepEqual(
        s.nodes.map((n) => [n.address, n.tunnelIp, n.nodeIp]),
        v6.hosts.map((h) => [h.ip6, h.ip6, undefined]),
    );
    // The API server calls ovnkube-identity's webhook on the master over IPv6.
    assert.deepEqual(s.ovnkube?.identity, { webhookAddress: "fd00:172:31:7::11" });

    // In the file: the same strings, as a user writes them.
    const file = writeLocalStack(dual, path.join(dual.dir, "Pulumi.local-fam.yaml"), { kubernetes, passphrase: "lab" });
    const config = YAML.parse(fs.readFileSync(file, "utf8")).config;
    assert.equal(config["ovn-kubernetes:clusterSubnet"], "10.128.0.0/14,fd00:10:128::/48");
    assert.equal(config["ovn-kubernetes:nodes"][2].nodeIp, "172.31.7.13,fd00:172:31:7::13");
});

test("IPv6 is refused in Pulumi mode; an IPv4 cluster's stack is as before, with no IPv6 anywhere", () => {
    assert.throws(() => localStackConfig(cluster("dual")), /local cluster fam runs dual: IPv6 needs ovnkube mode \(up --kubernetes\)/);
    const v4 = cluster("ipv4");
    const text = JSON.stringify(localStackConfig(v4)) + JSON.stringify(localStackConfig(v4, { kubernetes }));
    assert.equal(text.includes("fd00"), false);
    assert.equal(text.includes("nodeIp"), false);
    assert.equal(localStackConfig(v4, { kubernetes }).clusterSubnet, "10.128.0.0/14");
});

test("pods: both addresses of a dual-stack pod, a RequireDualStack Service, ping to either family and nothing else", async () => {
    const pod = (status: Record<string, unknown>) =>
        runningPodStatus({ apiVersion: "v1", kind: "Pod", metadata: { name: "p", uid: "u1" }, spec: { nodeName: "node1" }, status });
    assert.deepEqual(pod({ phase: "Running", podIP: "10.128.1.5", podIPs: [{ ip: "10.128.1.5" }, { ip: "fd00:10:128:1::5" }] }), {
        uid: "u1",
        node: "node1",
        ip: "10.128.1.5",
        ips: ["10.128.1.5", "fd00:10:128:1::5"],
    });
    assert.deepEqual(pod({ phase: "Running", podIP: "10.128.1.5" }), { uid: "u1", node: "node1", ip: "10.128.1.5", ips: ["10.128.1.5"] });
    const svc = clusterIpServiceManifest({
        name: "web",
        selector: { app: "web" },
        port: 80,
        targetPort: 8080,
        ipFamilyPolicy: "RequireDualStack",
    });
    assert.equal((svc.spec as { ipFamilyPolicy?: string }).ipFamilyPolicy, "RequireDualStack");
    assert.equal(
        "ipFamilyPolicy" in (clusterIpServiceManifest({ name: "web", selector: {}, port: 80, targetPort: 80 }).spec as object),
        false,
    );
    const c = cluster("dual", 1);
    for (const bad of ["fd00:10:128:1:0::5", "10.128.1.5; reboot", "-f"])
        await assert.rejects(ping(c, "node1", bad), /is not an IPv4 or IPv6 address/);
});

test("the local dual-stack and IPv6-only stacks validate, and the plan gives every node a subnet of each family", () => {
    // Key lines validation takes (the dev stack's).
    const keys = (stackConfig("dev").nodes as Array<{ hostKey: string }>).map((n) => n.hostKey);
    const withKeys = (c: LocalCluster): LocalCluster => ({ ...c, hosts: c.hosts.map((h, i) => ({ ...h, hostKeyLine: keys[i] })) });
    const valid = (c: ReturnType<typeof localStackConfig>) =>
        validateConfig({ ...c, sshPrivateKey: SECRET_PRESENT, kubeconfig: SECRET_PRESENT } as never);
    const dual = buildClusterModel(valid(localStackConfig(withKeys(cluster("dual")), { kubernetes })));
    assert.deepEqual(dual.serviceSubnets, ["172.30.0.0/16", "fd00:172:30::/112"]);
    for (const n of dual.kube.nodes) {
        assert.equal(n.subnets.length, 2, n.name);
        assert.ok(!n.subnets[0].includes(":") && n.subnets[1].startsWith("fd00:10:128:"), `${n.name}: ${n.subnets.join(", ")}`);
    }
    const v6 = buildClusterModel(valid(localStackConfig(withKeys(cluster("ipv6")), { kubernetes })));
    assert.deepEqual(v6.serviceSubnets, ["fd00:172:30::/112"]);
    assert.deepEqual(
        v6.kube.nodes.map((n) => n.encapIp),
        ["fd00:172:31:7::11", "fd00:172:31:7::12", "fd00:172:31:7::13"],
    );
});
