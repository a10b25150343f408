// The release's features: which ovnkube process each flag reaches (as ovnkube.sh passes it at
// v1.3.0), what a stack that says nothing gets (the chart's values), the Node label of an
// egress-assignable node, and the network-policy-api CRDs that come with adminNetworkPolicy.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EGRESS_ASSIGNABLE_LABEL, FEATURE_KEYS, featureFlags, featureOf, featureSettings } from "../../components/config/features";
import { clusterManagerArgs, masterArgs, nodeArgs } from "../../components/kube/ovnkubeArgs";
import { clusterRules } from "../../components/kube/rbac";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import { planCluster } from "../../components/plan/validate";
import { stackConfig } from "../../lab/harness/configs";
import { interconnectModel, kubeModel } from "../kube/fixture";

const CHART = featureSettings();
/** The flags of the chart's features, to see what others add. */
const CHART_FLAGS = new Set(["master", "clusterManager", "controller", "node"].flatMap((p) => featureFlags(CHART, 9107, p as "node")));

/** The dev stack in ovnkube mode, interconnect, nodes[2] a shared gateway; `edit` changes it further. */
function plan(edit: (c: Record<string, any>) => void = () => {}) {
    const c = stackConfig("dev");
    c.kubernetes = { enabled: true };
    c.nodes[2].gateway.mode = "shared";
    c.nodes[0].roles = ["master"];
    c.apiServer.url = "https://10.0.0.10:6443";
    c.kubeconfig = { secure: "v1:test" };
    edit(c);
    return planCluster(c);
}

describe("feature flags per process", () => {
    it("the chart's features: egress IP, firewall, QoS, service, external gateways, service templates", () => {
        assert.deepEqual(
            FEATURE_KEYS.filter((k) => CHART[k]),
            ["egressIp", "egressFirewall", "egressQos", "egressService", "multiExternalGateway", "serviceTemplates"],
        );
    });

    it("go where ovnkube.sh passes them: templates to the controllers, firewall and QoS not to centralized ovn-node", () => {
        const hc = "-egressip-node-healthcheck-port=9107";
        const common = ["-enable-egress-ip", "-enable-egress-service", "-enable-multi-external-gateway"];
        assert.deepEqual(
            featureFlags(CHART, 9107, "clusterManager").sort(),
            [...common, "-enable-egress-firewall", "-enable-egress-qos", hc].sort(),
        );
        assert.deepEqual(
            featureFlags(CHART, 9107, "controller").sort(),
            [...common, "-enable-egress-firewall", "-enable-egress-qos", "-enable-svc-template-support", hc].sort(),
        );
        assert.deepEqual(featureFlags(CHART, 9107, "master").sort(), featureFlags(CHART, 9107, "controller").sort());
        assert.deepEqual(featureFlags(CHART, 9107, "node").sort(), [...common, hc].sort());
    });

    it("reach the DaemonSets' command lines, with the gateway mode", () => {
        const ic = interconnectModel({ gatewayMode: "local", features: featureSettings({ multicast: true, egressIp: false }) });
        const cm = clusterManagerArgs(ic);
        const node = nodeArgs(ic, ic.nodeGroups[0]);
        for (const args of [cm, node]) {
            assert.equal(args[args.indexOf("-gateway-mode") + 1], "local");
            assert.ok(args.includes("-enable-multicast"));
            // No health-check port without EgressIP: nothing would listen or dial.
            assert.ok(!args.some((a) => a.startsWith("-egressip") || a === "-enable-egress-ip"), args.join(" "));
        }
        assert.ok(!cm.includes("-enable-svc-template-support") && node.includes("-enable-svc-template-support"));
        const central = kubeModel({ features: featureSettings({ statelessNetworkPolicy: true }) });
        assert.ok(masterArgs(central).includes("-enable-stateless-netpol"));
        assert.ok(!nodeArgs(central, central.nodeGroups[0]).includes("-enable-stateless-netpol"));
    });

    it("name only features of the table, and each dependency is a feature", () => {
        for (const k of FEATURE_KEYS)
            for (const r of featureOf(k).requires ?? []) assert.ok((FEATURE_KEYS as string[]).includes(r), `${k} requires ${r}`);
    });
});

describe("features in a stack", () => {
    it("a stack that names none gets the chart's, and the chart's gateway mode", () => {
        const { model } = plan();
        assert.deepEqual(model.kube.features, CHART);
        assert.equal(model.kube.gatewayMode, "shared");
        assert.equal(model.kube.egressIpHealthCheckPort, 9107);
    });

    it("adminNetworkPolicy applies the network-policy-api v0.1.5 CRDs after the release's, and a mirror serves them by name", () => {
        const off = plan().model.kube.crdUrls;
        const on = plan((c) => (c.ovnkube = { features: { adminNetworkPolicy: true } })).model.kube.crdUrls;
        assert.deepEqual(on.slice(0, off.length), off);
        assert.deepEqual(on.slice(off.length), [
            "https://raw.githubusercontent.com/kubernetes-sigs/network-policy-api/v0.1.5/config/crd/experimental/policy.networking.k8s.io_adminnetworkpolicies.yaml",
            "https://raw.githubusercontent.com/kubernetes-sigs/network-policy-api/v0.1.5/config/crd/experimental/policy.networking.k8s.io_baselineadminnetworkpolicies.yaml",
        ]);
        const mirrored = plan(
            (c) =>
                (c.ovnkube = {
                    crdMirror: "https://mirror.example.com/ovn-kubernetes/v1.3.0/crds/",
                    features: { adminNetworkPolicy: true },
                }),
        ).model.kube.crdUrls;
        assert.equal(
            mirrored.at(-1),
            "https://mirror.example.com/ovn-kubernetes/v1.3.0/crds/policy.networking.k8s.io_baselineadminnetworkpolicies.yaml",
        );
    });

    it("user-defined networks: their flags reach every process, network connect and preconfigured addresses not centralized's master", () => {
        const udn = featureSettings({
            multiNetwork: true,
            networkSegmentation: true,
            networkConnect: true,
            preconfiguredUdnAddresses: true,
        });
        const flags = (p: Parameters<typeof featureFlags>[2]) => featureFlags(udn, 9107, p).filter((f) => !CHART_FLAGS.has(f));
        const all = [
            "-enable-multi-network",
            "-enable-network-segmentation",
            "-enable-network-connect",
            "-enable-preconfigured-udn-addresses",
        ];
        for (const p of ["clusterManager", "controller", "node"] as const) assert.deepEqual(flags(p), all, p);
        assert.deepEqual(flags("master"), ["-enable-multi-network", "-enable-network-segmentation"]);
        // Persistent IPs: the IPAMClaim allocator, in the cluster manager (and centralized's master) only.
        const ipam = featureSettings({ multiNetwork: true, persistentIps: true });
        assert.ok(featureFlags(ipam, 9107, "clusterManager").includes("-enable-persistent-ips"));
        assert.ok(!featureFlags(ipam, 9107, "controller").includes("-enable-persistent-ips"));
    });

    it("multiNetwork, persistentIps and multiNetworkPolicy apply their projects' CRDs at the versions the release's go.mod requires", () => {
        const off = plan().model.kube.crdUrls;
        const on = plan((c) => (c.ovnkube = { features: { multiNetwork: true, persistentIps: true, multiNetworkPolicy: true } })).model.kube
            .crdUrls;
        assert.deepEqual(on.slice(0, off.length), off);
        assert.deepEqual(on.slice(off.length), [
            "https://raw.githubusercontent.com/k8snetworkplumbingwg/network-attachment-definition-client/v1.7.7/artifacts/networks-crd.yaml",
            "https://raw.githubusercontent.com/k8snetworkplumbingwg/ipamclaims/v0.5.1-alpha/artifacts/k8s.cni.cncf.io_ipamclaims.yaml",
            "https://raw.githubusercontent.com/k8snetworkplumbingwg/multi-networkpolicy/refs/tags/v1.0.1/scheme.yml",
        ]);
        // The release already ships the UDN, CUDN and ClusterNetworkConnect CRDs.
        for (const crd of ["userdefinednetworks", "clusteruserdefinednetworks", "clusternetworkconnects"])
            assert.ok(
                off.some((u) => u.endsWith(`k8s.ovn.org_${crd}.yaml`)),
                crd,
            );
    });

    it("user-defined networks grant the cluster manager the NADs it renders and the UDNs' status, the nodes only reads", () => {
        const udn = plan((c) => (c.ovnkube = { features: { multiNetwork: true, networkSegmentation: true } })).model.kube;
        const allows = (role: "control-plane" | "node", group: string, resource: string, verb: string) =>
            clusterRules(udn, role).some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb));
        assert.ok(allows("control-plane", "k8s.cni.cncf.io", "network-attachment-definitions", "create"));
        assert.ok(allows("control-plane", "k8s.ovn.org", "userdefinednetworks/status", "patch"));
        assert.ok(allows("node", "k8s.ovn.org", "clusteruserdefinednetworks", "watch"));
        assert.ok(!allows("node", "k8s.cni.cncf.io", "network-attachment-definitions", "create"));
        assert.ok(!allows("node", "k8s.ovn.org", "userdefinednetworks/status", "patch"));
        // Off: no k8s.cni.cncf.io at all.
        assert.ok(!clusterRules(plan().model.kube, "control-plane").some((r) => r.apiGroups.includes("k8s.cni.cncf.io")));
    });

    it("an egress-assignable gateway gets the label through the Node plan, and only it", () => {
        const { model } = plan((c) => (c.nodes[2].egressAssignable = true));
        const patches = kubeManifests(model.kube).nodePlans;
        const labelled = patches.filter((p) => p.metadata.labels?.[EGRESS_ASSIGNABLE_LABEL] !== undefined).map((p) => p.metadata.name);
        assert.deepEqual(labelled, ["kube-minion2"]);
        assert.equal(patches.find((p) => p.metadata.name === "kube-minion2")!.metadata.labels![EGRESS_ASSIGNABLE_LABEL], "");
        // Taken back: the plan no longer carries it, so the field manager's next apply removes it.
        assert.ok(kubeManifests(plan().model.kube).nodePlans.every((p) => p.metadata.labels?.[EGRESS_ASSIGNABLE_LABEL] === undefined));
    });
});

describe("changing features on a running cluster", () => {
    /** The objects of `b` that differ from `a`'s, by kind and name. */
    const changed = (a: ReturnType<typeof plan>, b: ReturnType<typeof plan>) => {
        const before = new Map(manifestList(kubeManifests(a.model.kube)).map((o) => [`${o.kind}/${o.metadata.name}`, JSON.stringify(o)]));
        return manifestList(kubeManifests(b.model.kube))
            .filter((o) => before.get(`${o.kind}/${o.metadata.name}`) !== JSON.stringify(o))
            .map((o) => `${o.kind}/${o.metadata.name}`);
    };

    it("one up rewrites the DaemonSets' command lines (their pods roll) and the ClusterRoles, nothing else", () => {
        const base = plan();
        assert.deepEqual(
            changed(
                base,
                plan((c) => (c.ovnkube = { features: { egressFirewall: false } })),
            ),
            [
                "ClusterRole/ovn-kubernetes-control-plane",
                "ClusterRole/ovn-kubernetes-node",
                "DaemonSet/ovnkube-control-plane",
                "DaemonSet/ovnkube-node-default",
                "DaemonSet/ovnkube-node-breth1-10-33-74-253",
            ],
        );
        // A feature without objects of its own changes only the command lines that take it.
        assert.deepEqual(
            changed(
                base,
                plan((c) => (c.ovnkube = { features: { serviceTemplates: false } })),
            ),
            ["DaemonSet/ovnkube-node-default", "DaemonSet/ovnkube-node-breth1-10-33-74-253"],
        );
        // An egress-assignable node: its Node plan only.
        assert.deepEqual(
            changed(
                base,
                plan((c) => (c.nodes[2].egressAssignable = true)),
            ),
            ["Node/kube-minion2"],
        );
    });
});
