// The policy pack's rules over the program's resources under mocks, as the analyzer gives them
// (../support/policyRun): stacks/Pulumi.prod.yaml passes every rule, and a production stack that
// breaks them all fails each rule with exactly the violations that name what broke it.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import type { Role } from "../../components/config/types";
import { POLICIES } from "../../policy/rules";
import { imageReference } from "../../policy/rules/images";
import { stackConfig } from "../../lab/harness/configs";
import { recordStack, runPolicies, type PolicyRun, type Violation } from "../support/policyRun";
import type { Recorded } from "../../lab/harness/pulumiMocks";

const prodConfig = stackConfig("prod") as { nodes: { name: string; roles: Role[] }[]; ssh: object; ovnkube: object };
/** What the running cluster has: the prod stack's roles. */
const running = Object.fromEntries(prodConfig.nodes.map((n) => [n.name, n.roles]));
const LATEST = "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:latest";

/**
 * The prod stack with every rule broken once: each override is one rule's violation. Marked a lab,
 * the only stack validation lets run with unverified host keys or a plain-http API server: the
 * policies hold a production stack to more than validation does.
 */
const BROKEN = {
    lab: true,
    ovnTransport: { protocol: "tcp", nbPort: 6641, sbPort: 6642 },
    ssh: { ...prodConfig.ssh, insecureIgnoreHostKey: true },
    ovnkube: { ...prodConfig.ovnkube, identity: { enabled: false }, image: LATEST, allowMovingImageTag: true },
    mtu: 1480,
    nodes: prodConfig.nodes.map((n) => (n.name === "worker-2" ? { ...n, roles: ["master"] } : n)),
    apiServer: { url: "http://api.prod.example.com:6443" },
    packages: {},
};

let prod: Recorded[];
let broken: Recorded[];
before(async () => {
    [prod, broken] = await Promise.all([recordStack("prod"), recordStack("prod", BROKEN)]);
});

const base: PolicyRun = { stack: "prod", config: { "role-change-needs-drain": { running } } };
const of = (vs: Violation[], policy: string) => vs.filter((v) => v.policy === policy);
const K8S_NODES = ["master-0", "worker-0", "worker-1", "worker-2"];

test("stacks/Pulumi.prod.yaml passes every rule, the roles it runs with unchanged", async () => {
    assert.equal(POLICIES.length, 8);
    assert.deepEqual(await runPolicies(POLICIES, prod, base), []);
});

test("ovsdb-over-ssl: a production stack over tcp fails on every listener and client address; a stack not marked production passes", async () => {
    const vs = of(await runPolicies(POLICIES, broken, base), "ovsdb-over-ssl");
    const byResource = (name: string) => vs.filter((v) => v.resource === name).map((v) => /uses (\S+):/.exec(v.message)![1]);
    assert.deepEqual(byResource("ovn-central-databases"), ["ptcp:6641:10.10.0.5"]);
    for (const n of K8S_NODES) assert.deepEqual(byResource(`ovn-${n}-chassis-controller`), ["tcp:10.10.0.5:6642"], n);
    assert.deepEqual(byResource("ovn-ovnkube-config"), ["tcp:10.10.0.5:6641", "tcp:10.10.0.5:6642"]);
    assert.ok(vs.every((v) => v.message.includes("set ovnTransport.protocol: ssl")));
    // Marking: by stack name (productionStacks) or by stack tag (productionTags).
    assert.deepEqual(of(await runPolicies(POLICIES, broken, { ...base, stack: "staging" }), "ovsdb-over-ssl"), []);
    assert.equal(
        of(await runPolicies(POLICIES, broken, { ...base, stack: "staging", stackTags: { environment: "production" } }), "ovsdb-over-ssl")
            .length,
        vs.length,
    );
    const named = { ...base, stack: "eu-west", config: { ...base.config, "ovsdb-over-ssl": { productionStacks: ["^eu-"] } } };
    assert.equal(of(await runPolicies(POLICIES, broken, named), "ovsdb-over-ssl").length, vs.length);
});

test("host-keys-verified: ssh.insecureIgnoreHostKey fails once per host, naming its address", async () => {
    const vs = of(await runPolicies(POLICIES, broken, base), "host-keys-verified");
    assert.deepEqual(vs.map((v) => /^host (\S+):/.exec(v.message)![1]).sort(), [
        "10.10.0.10",
        "10.10.0.20",
        "10.10.0.21",
        "10.10.0.22",
        "10.10.0.5",
    ]);
    assert.match(vs[0].message, /ssh\.insecureIgnoreHostKey is true/);
});

test("identity-webhook-on: ovnkube without ovnkube-identity fails once, naming ovnkube.identity.enabled", async () => {
    const vs = of(await runPolicies(POLICIES, broken, base), "identity-webhook-on");
    assert.deepEqual(
        vs.map((v) => v.resource),
        ["ovn-ovnkube"],
    );
    assert.match(
        vs[0].message,
        /without the ValidatingWebhookConfiguration ovn-kubernetes-admission-webhook-node: set ovnkube\.identity\.enabled: true/,
    );
});

test("mtu-fits-tunnel: 1480 + Geneve's 58 bytes fails on every chassis; a 9000-byte underlay passes it", async () => {
    const vs = of(await runPolicies(POLICIES, broken, base), "mtu-fits-tunnel");
    assert.deepEqual(vs.map((v) => v.resource).sort(), K8S_NODES.map((n) => `ovn-${n}-scripts`).sort());
    assert.match(
        vs.find((v) => v.resource === "ovn-master-0-scripts")!.message,
        /node master-0: mtu 1480 \+ 58 bytes of geneve = 1538 exceeds the underlay MTU 1500; set mtu to at most 1442/,
    );
    const jumbo = { ...base, config: { ...base.config, "mtu-fits-tunnel": { underlayMtu: 9000 } } };
    assert.deepEqual(of(await runPolicies(POLICIES, broken, jumbo), "mtu-fits-tunnel"), []);
});

test("role-change-needs-drain: worker-2 becoming a master fails until it is listed as drained; without running roles nothing is compared", async () => {
    const vs = of(await runPolicies(POLICIES, broken, base), "role-change-needs-drain");
    assert.deepEqual(
        vs.map((v) => v.resource),
        ["ovn-change-guard"],
    );
    assert.match(
        vs[0].message,
        /^node worker-2: roles \[node\] → \[master\] on a running cluster: drain it first \(kubectl drain worker-2 /,
    );
    const drained = { ...base, config: { "role-change-needs-drain": { running, drained: ["worker-2"] } } };
    assert.deepEqual(of(await runPolicies(POLICIES, broken, drained), "role-change-needs-drain"), []);
    assert.deepEqual(of(await runPolicies(POLICIES, broken, { stack: "prod" }), "role-change-needs-drain"), []);
});

test("images-pinned: :latest fails for every container; requireDigest fails the release tag too; tags and digests are told apart", async () => {
    const vs = of(await runPolicies(POLICIES, broken, base), "images-pinned");
    assert.ok(vs.length >= 4, `${vs.length} violations`);
    assert.ok(vs.every((v) => v.message.includes(`image ${LATEST} is tagged latest`)));
    assert.deepEqual(
        [...new Set(vs.map((v) => v.resource))].sort(),
        broken
            .filter((r) => r.type === "kubernetes:apps/v1:DaemonSet")
            .map((r) => r.name)
            .sort(),
    );
    const digestOnly = { ...base, config: { ...base.config, "images-pinned": { requireDigest: true } } };
    assert.match(
        of(await runPolicies(POLICIES, prod, digestOnly), "images-pinned")[0].message,
        /ovn-kube-ubuntu:release-1\.3 has no sha256 digest/,
    );
    assert.deepEqual(imageReference("registry.example.com:5000/ovn/ovnkube"), {});
    assert.deepEqual(imageReference("registry.example.com:5000/ovn/ovnkube:v1.3.0"), { tag: "v1.3.0" });
    assert.deepEqual(imageReference(`ovnkube@sha256:${"a".repeat(64)}`), { digest: `sha256:${"a".repeat(64)}` });
});

test("api-server-over-https: an http API server fails in production on ovn-config and every chassis", async () => {
    const vs = of(await runPolicies(POLICIES, broken, base), "api-server-over-https");
    assert.deepEqual(
        vs.map((v) => v.resource).sort(),
        ["ovn-ovnkube-config", ...K8S_NODES.map((n) => `ovn-${n}-chassis-controller`)].sort(),
    );
    assert.match(vs[0].message, /the API server http:\/\/api\.prod\.example\.com:6443 is not https/);
});

test("host-packages-pinned: unpinned packages fail in production on every host, naming the packages", async () => {
    const vs = of(await runPolicies(POLICIES, broken, base), "host-packages-pinned");
    assert.deepEqual(vs.map((v) => v.resource).sort(), prodConfig.nodes.map((n) => `ovn-${n.name}-scripts`).sort());
    assert.match(
        vs.find((v) => v.resource === `ovn-${prodConfig.nodes[0].name}-scripts`)!.message,
        /openvswitch-common, openvswitch-switch, ovn-common, ovn-central not pinned/,
    );
});
