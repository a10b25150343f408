// The real kubelet's pure parts and the OCI archive writer, without a lab: what containerd and the
// kubelet are configured with, how the cgroup hierarchies are read, and that an archive written
// here is a valid OCI layout whose blobs match their digests and whose index names the reference.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { parse } from "yaml";
import { cgroupMounts, nodeCgroupRoot } from "../../lab/localcluster/node/cgroups";
import { CLUSTER_CA, containerdConfig, kubeletArgv, kubeletConfig } from "../../lab/localcluster/node/config";
import { writeOciArchive } from "../../lab/localcluster/node/oci";

test("containerd keeps OOM scores, uses the lab's pause image and searches the node's CNI directories", () => {
    const toml = containerdConfig("localhost/lab/pause:1", ["/opt/cni/bin", "/usr/lib/cni"]);
    assert.match(toml, /^version = 3$/m);
    assert.match(toml, /\[plugins\.'io\.containerd\.cri\.v1\.runtime'\]\n {2}restrict_oom_score_adj = true/);
    assert.match(toml, /pinned_images\]\n {2}sandbox = 'localhost\/lab\/pause:1'/);
    assert.match(toml, /bin_dirs = \['\/opt\/cni\/bin', '\/usr\/lib\/cni'\]/);
});

test("the kubelet serves its API on the node address to clients of the cluster CA, in its own cgroup root", () => {
    const config = parse(kubeletConfig({ address: "172.31.9.11", cgroupRoot: nodeCgroupRoot("abc", "node2") }));
    assert.equal(config.address, "172.31.9.11");
    assert.equal(config.port, 10250);
    assert.deepEqual(config.authentication, {
        anonymous: { enabled: false },
        webhook: { enabled: true },
        x509: { clientCAFile: CLUSTER_CA },
    });
    assert.equal(config.authorization.mode, "Webhook");
    assert.equal(config.cgroupRoot, "/lc-abc/node2");
    assert.equal(config.failCgroupV1, false);
    assert.deepEqual(
        kubeletArgv({ bin: "/k", nodeName: "node2", nodeIps: ["172.31.9.12"], kubeconfig: "/etc/kubernetes/kubelet.conf" }).slice(2),
        ["--kubeconfig=/etc/kubernetes/kubelet.conf", "--hostname-override=node2", "--node-ip=172.31.9.12"],
    );
    assert.throws(() => nodeCgroupRoot("Bad-Id", "node1"), /invalid local cluster id "Bad-Id"/);
});

test("cgroup hierarchies are read from mountinfo with their controllers", () => {
    const mountinfo = [
        "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
        "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu",
        "40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime shared:5 - cgroup cgroup rw,name=systemd",
        "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
        "50 23 0:40 / /proc rw - proc proc rw",
    ].join("\n");
    assert.deepEqual(cgroupMounts(mountinfo), [
        { mountPoint: "/sys/fs/cgroup/cpu", fsType: "cgroup", options: "rw,cpu" },
        { mountPoint: "/sys/fs/cgroup/systemd", fsType: "cgroup", options: "rw,name=systemd" },
        { mountPoint: "/sys/fs/cgroup/unified", fsType: "cgroup2", options: "rw" },
    ]);
});

/** An OCI archive unpacked into `into`, and its blobs by digest. */
function unpackArchive(archive: string, into: string): { unpacked: string; blob(digest: string): Buffer } {
    fs.mkdirSync(into);
    execFileSync("tar", ["-C", into, "-xf", archive]);
    return { unpacked: into, blob: (digest) => fs.readFileSync(path.join(into, "blobs", "sha256", digest.replace(/^sha256:/, ""))) };
}

test("an OCI archive written here holds blobs that match their digests and an index naming the reference", async () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), "oci-"));
    try {
        const root = path.join(dir, "root");
        fs.mkdirSync(path.join(root, "bin"), { recursive: true });
        fs.writeFileSync(path.join(root, "bin/hello"), "#!/bin/sh\necho hello\n", { mode: 0o755 });
        const ref = "localhost/lab/hello:1";
        const archive = path.join(dir, "hello.tar");
        await writeOciArchive({ ref, layers: [root], entrypoint: ["/bin/hello"] }, path.join(dir, "layout"), archive);

        const { unpacked, blob } = unpackArchive(archive, path.join(dir, "unpacked"));
        const check = (d: { digest: string; size: number }) => {
            const bytes = blob(d.digest);
            assert.equal(`sha256:${createHash("sha256").update(bytes).digest("hex")}`, d.digest);
            assert.equal(bytes.length, d.size);
            return bytes;
        };
        assert.deepEqual(JSON.parse(fs.readFileSync(path.join(unpacked, "oci-layout"), "utf8")), { imageLayoutVersion: "1.0.0" });
        const index = JSON.parse(fs.readFileSync(path.join(unpacked, "index.json"), "utf8"));
        assert.equal(index.manifests[0].annotations["io.containerd.image.name"], ref);
        const manifest = JSON.parse(check(index.manifests[0]).toString());
        const config = JSON.parse(check(manifest.config).toString());
        assert.deepEqual(config.config.Entrypoint, ["/bin/hello"]);
        const layer = check(manifest.layers[0]);
        assert.deepEqual(config.rootfs.diff_ids, [manifest.layers[0].digest]);
        fs.writeFileSync(path.join(dir, "layer.tar"), layer);
        assert.match(execFileSync("tar", ["-tvf", path.join(dir, "layer.tar")]).toString(), /-rwxr-xr-x 0\/0 .* \.\/bin\/hello/);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
});

test("the same files give the same layer digest, read or not in between: two images share their common layer's blob", async () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), "oci-"));
    try {
        const root = path.join(dir, "root");
        fs.mkdirSync(path.join(root, "etc"), { recursive: true });
        fs.writeFileSync(path.join(root, "etc/os"), "lab\n");
        const layersOf = async (name: string) => {
            const archive = path.join(dir, `${name}.tar`);
            await writeOciArchive({ ref: `localhost/lab/${name}:1`, layers: [root] }, path.join(dir, "layout"), archive);
            const { unpacked, blob } = unpackArchive(archive, path.join(dir, name));
            const index = JSON.parse(fs.readFileSync(path.join(unpacked, "index.json"), "utf8"));
            return (JSON.parse(blob(index.manifests[0].digest).toString()).layers as Array<{ digest: string }>).map((l) => l.digest);
        };
        const first = await layersOf("one");
        // A read and a later change time: what tar's pax headers would otherwise record.
        fs.readFileSync(path.join(root, "etc/os"));
        fs.utimesSync(path.join(root, "etc/os"), new Date(), new Date());
        fs.chmodSync(path.join(root, "etc/os"), 0o644);
        await new Promise((r) => setTimeout(r, 1100));
        assert.deepEqual(await layersOf("two"), first);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
});
