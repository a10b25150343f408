// The whole program under the SDK's mocks: the component tree
// (components per node and role, names, parents), the stack outputs, and secrets kept secret.
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { validateConfig } from "../../components/plan/validate";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import { releaseOf } from "../../components/config/releases";
import { buildClusterModel } from "../../components/model/clusterModel";
import { stackConfig, type ExampleStack } from "../../lab/harness/configs";
import { dropSecrets, runProgramUnderMocks, settle, TEST_SECRETS, WEBHOOK_CERTIFICATE, type Recorded } from "../../lab/harness/pulumiMocks";

const count = (rs: Recorded[], type: string) => rs.filter((r) => r.type === type).length;
const named = (rs: Recorded[], name: string) => {
    const r = rs.find((x) => x.name === name);
    assert.ok(r, `no resource named ${name}; have ${rs.map((x) => x.name).join(", ")}`);
    return r;
};
const parentName = (r: Recorded) => r.parent;

/** Where the program's stack config (project ovn-kubernetes) keeps the SSH key. */
const KEY_CONFIG = "ovn-kubernetes:sshPrivateKey";

/**
 * ovnkube-identity under the Ovnkube component: the certificate for the webhook's address with its
 * private key a secret output, the Secret that serves the pair with its data secret, the key in no
 * input in plain text, and every webhook trusting the CA that signed the served certificate.
 */
function assertIdentity(resources: Recorded[], webhookAddress: string, interconnect: boolean) {
    const certificate = named(resources, "ovn-ovnkube-webhook-certificate");
    assert.equal(certificate.type, WEBHOOK_CERTIFICATE);
    assert.equal(parentName(certificate), "ovn-ovnkube");
    assert.deepEqual(certificate.inputs.hosts, [webhookAddress]);
    assert.deepEqual(certificate.secretOutputs, ["privateKey"], "the private key stays a secret output");
    assert.equal(parentName(named(resources, "ovn-ovnkube-identity")), "ovn-ovnkube");
    const secret = named(resources, "ovn-ovnkube-webhook-secret");
    assert.equal(parentName(secret), "ovn-ovnkube");
    assert.equal(secret.inputs.type, "kubernetes.io/tls");
    assert.equal(dropSecrets(secret.inputs.stringData), "[secret]", "the Secret's data is secret");
    const pair = secret.inputs.stringData.value as Record<"tls.crt" | "tls.key", string>;
    const keyLine = pair["tls.key"].split("\n")[1];
    for (const r of resources)
        assert.ok(!(JSON.stringify(dropSecrets(r.inputs)) ?? "").includes(keyLine), `${r.name}: the webhook's private key in plain text`);
    const served = new X509Certificate(pair["tls.crt"]);
    const webhooks = resources.filter((r) => r.type === "kubernetes:admissionregistration.k8s.io/v1:ValidatingWebhookConfiguration");
    assert.deepEqual(
        webhooks.map((w) => w.name).sort(),
        ["node", ...(interconnect ? ["pod"] : [])].map((k) => `ovn-ovnkube-ovn-kubernetes-admission-webhook-${k}`),
    );
    for (const w of webhooks) {
        assert.equal(parentName(w), "ovn-ovnkube");
        const [hook] = w.inputs.webhooks;
        assert.match(hook.clientConfig.url, new RegExp(`^https://${webhookAddress.replace(/\./g, "\\.")}:9443/(node|pod)$`));
        const ca = new X509Certificate(Buffer.from(hook.clientConfig.caBundle, "base64").toString());
        assert.ok(ca.ca && served.checkIssued(ca) && served.verify(ca.publicKey), `${w.name}: caBundle is the served certificate's CA`);
    }
}

/** Runs the program for a stack under mocks and checks its component tree, outputs and secrets. */
export async function assertProgramTree(STACK: ExampleStack) {
    const { program, resources } = await runProgramUnderMocks(STACK);
    const stackYaml = stackConfig(STACK);
    const nodes = stackYaml.nodes as Array<{ name: string; address: string; roles: string[]; gateway?: { mode: string } }>;
    const k8sNodes = nodes.filter((n) => n.roles.includes("node") || n.roles.includes("master"));
    const gateways = nodes.filter((n) => n.roles.includes("gateway"));
    const chassis = nodes.filter((n) => n.roles.some((r) => r !== "central"));
    const shared = gateways.filter((g) => g.gateway?.mode === "shared");

    assert.equal(count(resources, "ovn-kubernetes:index:OvnKubernetesCluster"), 1);
    // Each host's script bundle checks its key: no check of its own.
    assert.equal(count(resources, "pulumi-nodejs:dynamic/ssh:HostKeyCheck"), 0);
    // A node's parts (packages, zone, chassis, network, management port) are no components: their
    // resources are the cluster's own children, named after the part.
    for (const part of ["hosts:HostPackages", "hosts:Zone", "hosts:Chassis", "network:NodeNetwork", "hosts:ManagementPort"])
        assert.equal(count(resources, `ovn-kubernetes:${part}`), 0, part);
    // Each host's packages come with its script bundle (below): no command of their own.
    assert.equal(resources.filter((r) => r.name.endsWith("-packages-install")).length, 0);
    const commandsNamed = (suffix: string) => resources.filter((r) => r.type === "command:remote:Command" && r.name.endsWith(suffix));
    const clusterUrn = resources.find((r) => r.type === "ovn-kubernetes:index:OvnKubernetesCluster")!.registration!.urn;
    for (const suffix of ["-zone-databases", "-chassis-tunnel-bridge", "-chassis-controller", "-mgmt-port"])
        for (const c of commandsNamed(suffix)) assert.equal(c.registration!.parentUrn, clusterUrn, `${c.name}: a child of the cluster`);
    assert.equal(commandsNamed("-chassis-controller").length, chassis.length);
    const model = buildClusterModel(validateConfig(stackYaml));
    // Pulumi mode writes the topology; in ovnkube mode ovnkube does, and the project feeds it.
    const pulumiMode = model.writer === "pulumi";
    const writes = (n: number) => (pulumiMode ? n : 0);
    const feeds = (n: number) => (pulumiMode ? 0 : n);
    assert.equal(model.writer, stackYaml.kubernetes?.enabled === false ? "pulumi" : "ovnkube");
    // Interconnect: every Kubernetes node is its own zone (local NB, SB, northd) and no host is the central.
    const interconnect = model.architecture === "interconnect";
    assert.equal(interconnect, !pulumiMode && (stackYaml.ovnkube?.architecture ?? "interconnect") === "interconnect");
    assert.equal(count(resources, "ovn-kubernetes:hosts:Central"), interconnect ? 0 : 1);
    assert.equal(commandsNamed("-zone-databases").length, interconnect ? k8sNodes.length : 0);
    assert.equal(count(resources, "pulumi-nodejs:dynamic/ovn-nb:ClusterRouter"), writes(1));
    assert.equal(count(resources, "pulumi-nodejs:dynamic/ovn-nb:NodeSwitch"), writes(k8sNodes.length));
    assert.equal(commandsNamed("-mgmt-port").length, writes(k8sNodes.length));
    assert.equal(count(resources, "ovn-kubernetes:network:Gateway"), writes(gateways.length));
    assert.equal(count(resources, "pulumi-nodejs:dynamic/ovn-nb:GatewayRouter"), writes(gateways.length));
    assert.equal(count(resources, "ovn-kubernetes:hosts:GatewayFlows"), writes(shared.length));
    assert.equal(count(resources, "ovn-kubernetes:hosts:GatewayHost"), pulumiMode ? gateways.length : shared.length);
    // The schema check runs where ovnkube's databases are (the central, or every zone), in that host's script bundle.
    assert.equal(count(resources, "pulumi-nodejs:dynamic/ovn-kubernetes:OvnkubeSchemaCheck"), 0);
    const schemaChecked = resources.filter(
        (r) => r.type === "pulumi-nodejs:dynamic/hosts:ScriptBundle" && r.inputs.ovnkubeDatabases !== undefined,
    );
    const databaseHosts = pulumiMode ? [] : interconnect ? k8sNodes.map((n) => n.name) : [model.central!.host];
    assert.deepEqual(schemaChecked.map((b) => b.inputs.ovnkubeDatabases.node).sort(), [...databaseHosts].sort());
    for (const b of schemaChecked)
        assert.deepEqual(b.inputs.ovnkubeDatabases, { node: b.name.replace(/^ovn-(.*)-scripts$/, "$1"), version: model.kube.version });
    // With user-defined networks on, every Kubernetes node's bundle checks its host for systemd and VRF.
    const udnChecked = resources.filter((r) => r.type === "pulumi-nodejs:dynamic/hosts:ScriptBundle" && r.inputs.udnHost !== undefined);
    assert.deepEqual(
        udnChecked.map((b) => b.inputs.udnHost.node).sort(),
        !pulumiMode && model.kube.features.networkSegmentation ? k8sNodes.map((n) => n.name).sort() : [],
    );
    assert.equal(count(resources, "pulumi-nodejs:dynamic/ovn-kubernetes:TunnelTypeCheck"), writes(1));
    for (const check of resources.filter((r) => r.type === "pulumi-nodejs:dynamic/ovn-kubernetes:TunnelTypeCheck")) {
        assert.equal(check.inputs.privateKeyConfig, KEY_CONFIG, "the key named, not held");
        assert.equal("privateKey" in check.inputs, false);
    }
    // One script bundle per host, its key named by the config key; a chassis' carries its tunnel's
    // plan, whose MTU it checks before any command reaches the host.
    assert.equal(count(resources, "pulumi-nodejs:dynamic/ovn-kubernetes:TunnelMtuCheck"), 0);
    const bundles = resources.filter((r) => r.type === "pulumi-nodejs:dynamic/hosts:ScriptBundle");
    assert.deepEqual(bundles.map((b) => b.name).sort(), nodes.map((n) => `ovn-${n.name}-scripts`).sort());
    assert.deepEqual(
        bundles
            .filter((b) => b.inputs.tunnel !== undefined)
            .map((b) => b.inputs.tunnel.node)
            .sort(),
        chassis.map((n) => n.name).sort(),
    );
    for (const b of bundles.filter((b) => b.inputs.tunnel !== undefined)) assert.equal(b.inputs.tunnel.mtu, model.mtu);
    for (const b of bundles) {
        assert.equal(b.inputs.privateKeyConfig, KEY_CONFIG);
        assert.match(b.inputs.digest, /^[0-9a-f]{64}$/);
        // The host's package step, run from the bundle: the host's own packages at the stack's pins.
        const host = model.hosts.find((h) => `ovn-${h.name}-scripts` === b.name)!;
        if (model.packages.skip) assert.equal(b.inputs.packages, undefined);
        else {
            assert.match(
                b.inputs.packages,
                new RegExp(`^\\. /usr/local/lib/ovn-kubernetes-as-code/${b.inputs.digest.slice(0, 16)}/run\\.sh packages-install$`, "m"),
            );
            const wanted = /^wanted='([^']*)'$/m.exec(b.inputs.packages)![1].split(" ");
            assert.deepEqual(
                wanted.map((w) => w.split("=")[0]),
                host.packages,
            );
        }
    }
    // Every NIC move's NIC in its host's bundle, whose check refuses a NIC the distribution still
    // configures: the userspace tunnel NICs and the gateways' NICs.
    assert.equal(count(resources, "pulumi-nodejs:dynamic/ovn-kubernetes:NicHandoverCheck"), 0);
    const moved = bundles
        .flatMap((b) =>
            (b.inputs.nics ?? []).map((n: { node: string; interface: string; role: string }) => `${n.node}/${n.interface}/${n.role}`),
        )
        .sort();
    const expected = [
        ...model.hosts.filter((h) => h.chassis?.tunnelBridge).map((h) => `${h.name}/${h.chassis!.tunnelBridge!.interface}/tunnel`),
        ...model.gateways.map((g) => `${g.node}/${g.interface}/gateway`),
    ].sort();
    assert.deepEqual(moved, expected);
    assert.equal(count(resources, "ovn-kubernetes:hosts:GatewayHost"), model.gateways.length);
    for (const b of bundles)
        for (const n of b.inputs.nics ?? []) assert.equal(b.name, `ovn-${n.node}-scripts`, "each NIC in its own host's bundle");
    assert.equal(count(resources, "ovn-kubernetes:kubernetes:Ovnkube"), feeds(1));
    // Expectations: centralized, the cluster router and per node its switch and its gateway router;
    // interconnect, one per zone holding all of its node's rows.
    assert.equal(
        count(resources, "pulumi-nodejs:dynamic/ovn-nb:NorthboundExpectation"),
        feeds(interconnect ? k8sNodes.length : 1 + 2 * k8sNodes.length),
    );
    // The release's CRDs, read from the (lab's) mirror when the program runs, one resource each.
    const crds = resources.filter((r) => r.type === "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition");
    assert.equal(crds.length, feeds(releaseOf(model.kube.version).crdUrls.length));
    for (const crd of crds) {
        assert.match(crd.inputs.metadata.name, /^[a-z]+\.k8s\.ovn\.org$/);
        assert.equal(crd.name, `ovn-ovnkube-crd-${crd.inputs.metadata.name}`);
        assert.equal(parentName(crd), "ovn-ovnkube");
    }
    // Two guards per stack, children of the cluster with the same inputs: the change guard
    // registered before any host is touched, the destroy guard after everything. They check NB
    // groups only where the stack writes them.
    assert.equal(count(resources, "pulumi-nodejs:dynamic/ovn-kubernetes:DestroyGuard"), 1);
    assert.equal(count(resources, "pulumi-nodejs:dynamic/ovn-kubernetes:ChangeGuard"), 1);
    const guard = named(resources, "ovn-destroy-guard");
    const changeGuard = named(resources, "ovn-change-guard");
    for (const g of [guard, changeGuard]) {
        assert.equal(parentName(g), "ovn");
        assert.equal(g.inputs.groups.length, writes(1 + k8sNodes.length + gateways.length));
        assert.equal(g.inputs.hosts.length, nodes.length);
        assert.equal(g.inputs.privateKeyConfig, KEY_CONFIG, "the key named, not held");
        assert.equal("privateKey" in g.inputs, false);
        if (pulumiMode) assert.equal(g.inputs.nb.privateKeyConfig, KEY_CONFIG);
    }
    const customs = resources.filter(
        (r) => r.type.startsWith("pulumi-nodejs:") || r.type.startsWith("command:") || r.type.startsWith("kubernetes:"),
    );
    // ovnkube mode with the stack's kubeconfig: the same-cluster check first, the change guard after it.
    const identityCheck = resources.find((r) => r.type === "pulumi-nodejs:dynamic/ovn-kubernetes:ClusterIdentityCheck");
    const withKubeconfig = !pulumiMode && stackYaml.kubeconfig !== undefined;
    assert.equal(identityCheck !== undefined, withKubeconfig);
    if (identityCheck) {
        assert.equal(customs[0], identityCheck, `registered first: ${customs[0]?.name}`);
        const { __provider: _stub, ...checkInputs } = identityCheck.inputs;
        assert.deepEqual(
            checkInputs,
            { apiServerUrl: stackYaml.apiServer.url, kubeconfigConfig: "ovn-kubernetes:kubeconfig" },
            "the kubeconfig named, not held",
        );
        assert.ok(changeGuard.registration!.dependencies.includes(identityCheck.registration!.urn), "the change guard waits for it");
    }
    assert.equal(customs[withKubeconfig ? 1 : 0], changeGuard, `registered first: ${customs[0]?.name}`);
    assert.equal(customs.at(-1), guard, `registered last: ${customs.at(-1)?.name}`);
    const daemonSets = pulumiMode ? 0 : manifestList(kubeManifests(model.kube)).filter((o) => o.kind === "DaemonSet").length;
    assert.equal(count(resources, "kubernetes:apps/v1:DaemonSet"), daemonSets);
    // Node identities, on by default in ovnkube mode: ovnkube-identity, its webhook certificate and
    // their Secret, and the webhooks (the pod webhook with interconnect only).
    const identity = !pulumiMode && model.kube.identity !== undefined;
    assert.equal(identity, !pulumiMode && stackYaml.ovnkube?.identity?.enabled !== false);
    const ifIdentity = (n: number) => (identity ? n : 0);
    assert.equal(count(resources, WEBHOOK_CERTIFICATE), ifIdentity(1));
    assert.equal(count(resources, "kubernetes:core/v1:Secret"), ifIdentity(1));
    assert.equal(
        count(resources, "kubernetes:admissionregistration.k8s.io/v1:ValidatingWebhookConfiguration"),
        ifIdentity(interconnect ? 2 : 1),
    );
    assert.equal(daemonSets, pulumiMode ? 0 : 1 + model.kube.nodeGroups.length + ifIdentity(1));
    if (identity) assertIdentity(resources, model.kube.identity!.webhookAddress, interconnect);

    // Names derive from the component's name and the node; parents follow the tree.
    if (pulumiMode) {
        for (const n of k8sNodes) {
            assert.equal(parentName(named(resources, `ovn-${n.name}-switch`)), "ovn");
            assert.equal(parentName(named(resources, `ovn-${n.name}-mgmt-mgmt-port`)), "ovn");
        }
        for (const g of gateways) {
            assert.equal(parentName(named(resources, `ovn-${g.name}-gateway`)), "ovn");
            assert.equal(parentName(named(resources, `ovn-${g.name}-gateway-router`)), `ovn-${g.name}-gateway`);
            assert.equal(parentName(named(resources, `ovn-${g.name}-gateway-host`)), `ovn-${g.name}-gateway`);
        }
        assert.equal(parentName(named(resources, "ovn-cluster-router")), "ovn");
    } else {
        for (const g of shared) assert.equal(parentName(named(resources, `ovn-${g.name}-gateway-bridge`)), "ovn");
        assert.equal(parentName(named(resources, "ovn-ovnkube")), "ovn");
        assert.equal(parentName(named(resources, interconnect ? "ovn-ovnkube-control-plane" : "ovn-ovnkube-master")), "ovn-ovnkube");
        const configMap = named(resources, "ovn-ovnkube-config");
        // Interconnect: ovnkube uses each zone's own unix sockets, so ovn-config names no databases.
        for (const key of ["OvnNorth", "OvnSouth"]) assert.equal(key in configMap.inputs.data, !interconnect, key);
        for (const n of k8sNodes) {
            const plan = named(resources, `ovn-ovnkube-${n.name}-plan`);
            assert.equal(
                plan.inputs.metadata.labels?.["k8s.ovn.org/zone-name"],
                interconnect ? n.name : undefined,
                `${n.name}: zone label`,
            );
        }
        if (interconnect) {
            for (const n of k8sNodes) {
                // Each zone's rows are expected in that zone's own NB, on its own host.
                const expectation = named(resources, `ovn-expect-zone-${n.name}`);
                assert.equal(parentName(expectation), "ovn");
                assert.equal(expectation.inputs.nb.ssh.host, n.address);
                assert.equal(expectation.inputs.nb.members, undefined);
            }
        } else {
            for (const n of k8sNodes)
                for (const e of [`ovn-expect-node-${n.name}`, `ovn-expect-gateway-${n.name}`])
                    assert.equal(parentName(named(resources, e)), "ovn");
        }
    }
    if (!interconnect) assert.equal(parentName(named(resources, "ovn-central")), "ovn");

    // Outputs.
    const subnets = await settle(program.nodeSubnets);
    assert.deepEqual(Object.keys(subnets.value).sort(), k8sNodes.map((n) => n.name).sort());
    for (const n of nodes.filter((x) => (x as any).subnet)) assert.equal(subnets.value[n.name], (n as any).subnet);
    const routers = (await settle(program.routerIps)).value;
    const mgmt = (await settle(program.managementIps)).value;
    for (const n of k8sNodes) {
        const base = subnets.value[n.name].split("/")[0].split(".").map(Number);
        assert.equal(routers[n.name], [...base.slice(0, 3), base[3] + 1].join("."));
        assert.equal(mgmt[n.name], [...base.slice(0, 3), base[3] + 2].join("."));
    }
    if (interconnect) {
        // Every client of a zone's databases is on the zone's host.
        assert.equal((await settle(program.nbAddress)).value, "unix:/var/run/ovn/ovnnb_db.sock");
        assert.equal((await settle(program.sbAddress)).value, "unix:/var/run/ovn/ovnsb_db.sock");
    } else {
        const central = nodes.find((n) => n.roles.includes("central"))!;
        const protocol = stackYaml.ovnTransport?.protocol ?? "tcp";
        assert.equal((await settle(program.nbAddress)).value, `${protocol}:${central.address}:6641`);
        assert.equal((await settle(program.sbAddress)).value, `${protocol}:${central.address}:6642`);
    }
    assert.equal(Object.keys((await settle(program.systemIds)).value).length, chassis.length);

    // Secrets: wherever a secret value travels it is marked secret; it is never a plain input.
    for (const r of resources) {
        for (const [key, value] of Object.entries(r.inputs)) {
            const text = JSON.stringify(dropSecrets(value)) ?? "";
            const leaks = Object.values(TEST_SECRETS).some((s) => text.includes(s.split("\n")[1]));
            assert.ok(!leaks, `${r.type} ${r.name}: input ${key} holds a secret in plain text`);
        }
    }
    const commands = resources.filter((r) => r.type === "command:remote:Command");
    assert.ok(commands.length > 0);
    for (const c of commands) assert.equal(dropSecrets(c.inputs.connection), "[secret]", `${c.name}: connection not secret`);
    // The NB resources name the key's stack config key, where their provider reads it: no key, nothing secret.
    for (const r of resources.filter((x) => x.type.startsWith("pulumi-nodejs:dynamic/ovn-nb:"))) {
        assert.deepEqual(dropSecrets(r.inputs.nb), r.inputs.nb, `${r.name}: nb holds a secret`);
        assert.equal(r.inputs.nb.privateKeyConfig, KEY_CONFIG, r.name);
        assert.equal("privateKey" in r.inputs.nb, false, r.name);
    }
    const kubeconfigProvider = resources.find((r) => r.type === "pulumi:providers:kubernetes");
    if (kubeconfigProvider) assert.equal(dropSecrets(kubeconfigProvider.inputs.kubeconfig), "[secret]");
}
