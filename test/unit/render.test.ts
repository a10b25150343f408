import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { parseAllDocuments } from "yaml";
import { ROOT } from "../support/configs";

const render = (file: string, out: string) =>
    spawnSync(process.execPath, ["--import", "tsx", "tools/render.ts", file, "--out", out], { cwd: ROOT, encoding: "utf8" });

test("render: dev stack → Kubernetes YAML, NB rows as JSON and an ovn-nbctl-show view", () => {
    const out = mkdtempSync(path.join(tmpdir(), "render-"));
    const r = render("stacks/Pulumi.dev.yaml", out);
    assert.equal(r.status, 0, r.stderr);
    const docs = parseAllDocuments(readFileSync(path.join(out, "kubernetes.yaml"), "utf8")).map((d) => d.toJS());
    assert.deepEqual(
        docs.map((d) => `${d.kind}/${d.metadata.name}`).filter((k) => k.startsWith("DaemonSet") || k.startsWith("ConfigMap")),
        ["ConfigMap/ovn-config", "DaemonSet/ovnkube-master", "DaemonSet/ovnkube-node"],
    );
    const groups = JSON.parse(readFileSync(path.join(out, "northbound.json"), "utf8"));
    assert.deepEqual(groups.map((g: any) => `${g.resource}:${g.name}`), [
        "ClusterRouter:ovn_cluster_router",
        "NodeSwitch:kube-master",
        "NodeSwitch:kube-minion1",
        "NodeSwitch:kube-minion2",
        "GatewayRouter:kube-minion2",
    ]);
    for (const g of groups) for (const row of g.rows) assert.equal(row.maps.external_ids["pulumi-owner"], "ovn-kubernetes/dev");
    const text = readFileSync(path.join(out, "northbound.txt"), "utf8");
    assert.match(text, /switch \(kube-minion1\)\n    port stor-kube-minion1\n        type: router\n        addresses: \["0a:58:c0:a8:02:01"\]\n        router-port: rtos-kube-minion1\n/);
    assert.match(text, /router \(GR_kube-minion2\)[\s\S]*?    nat\n        external ip: "10\.33\.74\.138"\n        logical ip: "192\.168\.0\.0\/16"\n        type: "snat"/);
    assert.match(text, /route 0\.0\.0\.0\/0 via 10\.33\.74\.253 dev rtoe-GR_kube-minion2/);
    assert.match(text, /    chassis: <system-id of kube-minion2>/);
});

test("render: prod stack has two gateways with rampout routes; a bad stack exits 1 naming the path", () => {
    const out = mkdtempSync(path.join(tmpdir(), "render-"));
    assert.equal(render("stacks/Pulumi.prod.yaml", out).status, 0);
    const text = readFileSync(path.join(out, "northbound.txt"), "utf8");
    assert.match(text, /route 10\.128\.2\.0\/23 via 100\.64\.\d+\.\d+ \(src-ip\)/);
    assert.equal((text.match(/^router \(GR_/gm) ?? []).length, 2);
    const badFile = path.join(out, "Pulumi.bad.yaml");
    writeFileSync(badFile, readFileSync(path.join(ROOT, "stacks/Pulumi.dev.yaml"), "utf8").replace("ovn-kubernetes:mtu: 1400", "ovn-kubernetes:mtu: 20"));
    const bad = render(badFile, out);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /Pulumi\.bad\.yaml: mtu: must be >= 576/);
});
