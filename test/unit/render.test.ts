import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { parseAllDocuments } from "yaml";
import { ROOT } from "../../lab/harness/configs";

const render = (file: string, out: string) =>
    spawnSync(process.execPath, ["--import", "tsx", "cli/render.ts", file, "--out", out], { cwd: ROOT, encoding: "utf8" });

test("render: dev stack (Pulumi mode) → NB rows as JSON and an ovn-nbctl-show view, no Kubernetes objects", () => {
    const out = mkdtempSync(path.join(tmpdir(), "render-"));
    const r = render("stacks/Pulumi.dev.yaml", out);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(existsSync(path.join(out, "kubernetes.yaml")), false);
    const groups = JSON.parse(readFileSync(path.join(out, "northbound.json"), "utf8"));
    assert.deepEqual(
        groups.map((g: any) => `${g.resource}:${g.name}`),
        [
            "ClusterRouter:ovn_cluster_router",
            "NodeSwitch:kube-master",
            "NodeSwitch:kube-minion1",
            "NodeSwitch:kube-minion2",
            "GatewayRouter:kube-minion2",
        ],
    );
    for (const g of groups) for (const row of g.rows) assert.equal(row.maps.external_ids["pulumi-owner"], "ovn-kubernetes/dev");
    const text = readFileSync(path.join(out, "northbound.txt"), "utf8");
    assert.match(
        text,
        /switch \(kube-minion1\)\n    port stor-kube-minion1\n        type: router\n        addresses: \["0a:58:c0:a8:02:01"\]\n        router-port: rtos-kube-minion1\n/,
    );
    assert.match(
        text,
        /router \(GR_kube-minion2\)[\s\S]*?    nat\n        external ip: "10\.33\.74\.138"\n        logical ip: "192\.168\.0\.0\/16"\n        type: "snat"/,
    );
    assert.match(text, /route 0\.0\.0\.0\/0 via 10\.33\.74\.253 dev rtoe-GR_kube-minion2/);
    assert.match(text, /    chassis: <system-id of kube-minion2>/);
});

test("render: prod stack (ovnkube mode) → Kubernetes YAML and the plan, no NB rows; a bad stack exits 1 naming the path", () => {
    const out = mkdtempSync(path.join(tmpdir(), "render-"));
    assert.equal(render("stacks/Pulumi.prod.yaml", out).status, 0);
    assert.equal(existsSync(path.join(out, "northbound.json")), false);
    const docs = parseAllDocuments(readFileSync(path.join(out, "kubernetes.yaml"), "utf8")).map((d) => d.toJS());
    const kinds = docs.map((d) => `${d.kind}/${d.metadata.name}`);
    assert.ok(kinds.includes("ConfigMap/ovn-config"), kinds.join(", "));
    assert.ok(kinds.includes("DaemonSet/ovnkube-master"), kinds.join(", "));
    const plan = JSON.parse(readFileSync(path.join(out, "plan.json"), "utf8"));
    assert.equal(plan.writer, "ovnkube");
    assert.deepEqual(
        plan.nodes.map((n: any) => [n.name, ...n.subnets]),
        [
            ["master-0", "10.128.0.0/23"],
            ["worker-0", "10.128.2.0/23"],
            ["worker-1", "10.128.4.0/23"],
            ["worker-2", "10.128.6.0/23"],
        ],
    );
    const badFile = path.join(out, "Pulumi.bad.yaml");
    writeFileSync(
        badFile,
        readFileSync(path.join(ROOT, "stacks/Pulumi.dev.yaml"), "utf8").replace("ovn-kubernetes:mtu: 1400", "ovn-kubernetes:mtu: 20"),
    );
    const bad = render(badFile, out);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /Pulumi\.bad\.yaml: mtu: must be >= 576/);
});

test("render: staging stack (ovnkube mode, interconnect) → the cluster manager, a zone label per Node, no database addresses; the plan with transit addresses", () => {
    const out = mkdtempSync(path.join(tmpdir(), "render-"));
    const r = render("stacks/Pulumi.staging.yaml", out);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(existsSync(path.join(out, "northbound.json")), false);
    const docs = parseAllDocuments(readFileSync(path.join(out, "kubernetes.yaml"), "utf8")).map((d) => d.toJS());
    const kinds = docs.map((d) => `${d.kind}/${d.metadata.name}`);
    for (const k of [
        "DaemonSet/ovnkube-control-plane",
        "ServiceAccount/ovnkube-cluster-manager",
        "ServiceAccount/ovnkube-node",
        "ClusterRole/ovn-kubernetes-control-plane",
    ])
        assert.ok(kinds.includes(k), `${k} in ${kinds.join(", ")}`);
    assert.ok(!kinds.includes("DaemonSet/ovnkube-master"));
    const configMap = docs.find((d) => d.kind === "ConfigMap");
    assert.ok(!("OvnNorth" in configMap.data) && !("OvnSouth" in configMap.data));
    const nodes = docs.filter((d) => d.kind === "Node");
    assert.deepEqual(
        nodes.map((n) => n.metadata.labels["k8s.ovn.org/zone-name"]),
        ["master-0", "master-1", "master-2", "worker-0", "worker-1"],
    );
    const plan = JSON.parse(readFileSync(path.join(out, "plan.json"), "utf8"));
    for (const n of plan.nodes) assert.match(n.transit[0].cidr, /^100\.88\.\d+\.\d+\/16$/, n.name);
});
