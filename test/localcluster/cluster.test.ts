// A real local cluster: hosts reachable over SSH with pinned keys, an underlay on which hosts
// and the external router reach each other, private per-host directories, and a `down` that
// leaves nothing behind.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { Client } from "ssh2";
import { down, hostExec, loadCluster, status, up } from "../../lab/localcluster";
import type { LocalCluster } from "../../lab/localcluster";
import { ProcessMark, leftovers, markOf, processesIn, stillRunning } from "./leftovers";

const ID = "lcup";
let cluster: LocalCluster;
let knownHosts: string;

function ssh(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
        execFile("ssh", args, { encoding: "utf8", timeout: 20_000 }, (err, stdout, stderr) =>
            resolve({ code: err ? (typeof err.code === "number" ? err.code : 255) : 0, stdout, stderr }),
        );
    });
}

function sshArgs(ip: string, knownHostsFile: string, command: string): string[] {
    return [
        "-i",
        cluster.privateKeyPath,
        "-o",
        "StrictHostKeyChecking=yes",
        "-o",
        `UserKnownHostsFile=${knownHostsFile}`,
        "-o",
        "BatchMode=yes",
        "-o",
        "ConnectTimeout=5",
        `root@${ip}`,
        command,
    ];
}

before(async () => {
    await down(ID); // whatever an aborted earlier run left
    cluster = await up({ id: ID, hosts: 3 });
    // Built from the pinned keys the cluster reports, not from the file it wrote.
    knownHosts = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lc-kh-")), "known_hosts");
    fs.writeFileSync(knownHosts, cluster.hosts.map((h) => `${h.ip} ${h.hostKeyLine}\n`).join(""));
});

after(async () => {
    await down(ID);
    fs.rmSync(path.dirname(knownHosts), { recursive: true, force: true });
});

test("every host's sshd answers with its pinned key and runs commands as that host", async () => {
    for (const h of cluster.hosts) {
        const r = await ssh(sshArgs(h.ip, knownHosts, "hostname; ip -4 -o addr show eth0"));
        assert.equal(r.code, 0, r.stderr);
        const [name, addr] = r.stdout.split("\n");
        assert.equal(name, h.name);
        assert.match(addr, new RegExp(`inet ${h.ip.replace(/\./g, "\\.")}/24 `));
    }
});

test("ssh refuses a host whose key differs from the pinned one", async () => {
    const wrong = path.join(path.dirname(knownHosts), "wrong_known_hosts");
    const [a, b] = cluster.hosts;
    fs.writeFileSync(wrong, `${a.ip} ${b.hostKeyLine}\n`);
    const r = await ssh(sshArgs(a.ip, wrong, "true"));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /HOST IDENTIFICATION HAS CHANGED|Host key verification failed/);
});

test("ssh2 logs in with the generated key and the host key's SHA256 fingerprint matches", async () => {
    const h = cluster.hosts[1];
    const out = await new Promise<string>((resolve, reject) => {
        const client = new Client();
        let seen = "";
        client
            .on("ready", () => {
                client.exec("hostname", (err, stream) => {
                    if (err) return reject(err);
                    let text = "";
                    stream
                        .on("data", (d: Buffer) => (text += d.toString()))
                        .on("close", () => {
                            client.end();
                            resolve(text.trim());
                        });
                });
            })
            .on("error", reject)
            .connect({
                host: h.ip,
                port: h.sshPort,
                username: "root",
                privateKey: fs.readFileSync(cluster.privateKeyPath),
                hostHash: "sha256",
                hostVerifier: (hash: string) => {
                    seen = `SHA256:${Buffer.from(hash, "hex").toString("base64").replace(/=+$/, "")}`;
                    return seen === h.hostKeyFingerprint;
                },
                readyTimeout: 10_000,
            } as never);
    });
    assert.equal(out, h.name);
});

test("hosts reach each other and the external router; the default route points at it", async () => {
    for (const from of cluster.hosts) {
        for (const to of [...cluster.hosts.filter((h) => h !== from).map((h) => h.ip), cluster.external.ip]) {
            const r = await hostExec(cluster, from.name, ["ping", "-n", "-c", "1", "-W", "2", to]);
            assert.equal(r.code, 0, `${from.name} -> ${to}: ${r.stdout}${r.stderr}`);
        }
        const route = await hostExec(cluster, from.name, ["ip", "-4", "route", "show", "default"]);
        assert.match(route.stdout, new RegExp(`default via ${cluster.external.ip.replace(/\./g, "\\.")} dev eth0`));
    }
});

test("each host has its own /run, OVS/OVN directories and hostname", async () => {
    const [a, b] = cluster.hosts;
    const marker = `lc-test-${process.pid}`;
    for (const dir of ["/run", "/etc/openvswitch", "/var/lib/ovn", "/var/log/ovn"]) {
        const file = `${dir}/${marker}`;
        assert.equal((await hostExec(cluster, a.name, ["touch", file])).code, 0);
        assert.equal((await hostExec(cluster, a.name, ["test", "-e", file])).code, 0, `${file} written on ${a.name}`);
        assert.equal((await hostExec(cluster, b.name, ["test", "-e", file])).code, 1, `${file} visible on ${b.name}`);
        assert.equal(fs.existsSync(file), false, `${file} visible in the root namespace`);
    }
    assert.equal((await hostExec(cluster, b.name, "hostname")).stdout.trim(), b.name);
    // As on an installed host, its own name and its peers' resolve (ovs-ctl runs `hostname -f`).
    assert.equal((await hostExec(cluster, b.name, ["hostname", "-f"])).stdout.trim(), b.name);
    assert.match(
        (await hostExec(cluster, b.name, ["getent", "hosts", a.name])).stdout,
        new RegExp(`^${a.ip.replace(/\./g, "\\.")}\\s+${a.name}`),
    );
    assert.equal((await hostExec(cluster, b.name, ["cat", "/etc/hostname"])).stdout, `${b.name}\n`);
    assert.notEqual(fs.readFileSync("/etc/hostname", "utf8"), `${b.name}\n`);
    assert.notEqual(os.hostname(), a.name);
});

test("status reports every host alive and reachable; a second up of the same id is refused", async () => {
    const s = await status(ID);
    assert.equal(s.healthy, true);
    assert.deepEqual(
        s.hosts.map((h) => [h.name, h.holderAlive, h.reachable, typeof h.sshdPid]),
        [
            ["node1", true, true, "number"],
            ["node2", true, true, "number"],
            ["node3", true, true, "number"],
        ],
    );
    assert.deepEqual(
        loadCluster(ID).hosts.map((h) => h.ip),
        cluster.hosts.map((h) => h.ip),
    );
    await assert.rejects(up({ id: ID, hosts: 1 }), /already exists/);
    // Another cluster on the same underlay would answer for these hosts' addresses: refused before anything is made.
    await assert.rejects(up({ id: "lcupdup", hosts: 1, subnet: cluster.subnet }), /overlaps the route to/);
    assert.deepEqual(leftovers("lcupdup"), { netns: [], links: [], mounts: [] });
});

test("down ends every process and removes every namespace, link, mount and file of the cluster", async () => {
    // Something the program under test might leave running inside a host.
    await hostExec(cluster, "node2", "sleep 300 >/dev/null 2>&1 &");
    // And something that entered only a host's mount namespace: it is in the root's network
    // namespace but would keep the host's mounts alive.
    const mountOnly = spawn("nsenter", ["-t", String(cluster.hosts[0].holderPid), "-m", "--", "sleep", "300"], {
        detached: true,
        stdio: "ignore",
    });
    mountOnly.unref();
    const holderMnt = fs.readlinkSync(`/proc/${cluster.hosts[0].holderPid}/ns/mnt`);
    for (let i = 0; i < 100 && fs.readlinkSync(`/proc/${mountOnly.pid}/ns/mnt`) !== holderMnt; i++) {
        await new Promise((r) => setTimeout(r, 20)); // until nsenter has entered it
    }
    const marks: ProcessMark[] = [...processesIn(leftovers(ID).netns), ...markOf(mountOnly.pid!)];
    assert.equal(fs.readlinkSync(`/proc/${mountOnly.pid}/ns/mnt`), holderMnt, "the mount-only process is in the host's mount namespace");
    assert.notEqual(fs.readlinkSync(`/proc/${mountOnly.pid}/ns/net`), fs.readlinkSync(`/proc/${cluster.hosts[0].holderPid}/ns/net`));
    assert.ok(marks.length >= 7, `holders, sshds and the sleeper: ${marks.length}`);
    const before = leftovers(ID);
    assert.equal(before.netns.length, 4);
    assert.equal(before.links.length, 5); // bridge, external veth, 3 host veths

    await down(ID);

    assert.deepEqual(stillRunning(marks), []);
    assert.deepEqual(leftovers(ID), { netns: [], links: [], mounts: [] });
    assert.equal(fs.existsSync(cluster.dir), false);
    assert.equal((await status(ID)).up, false);
    await assert.rejects(hostExec(cluster, "node1", "true"), /not running/);
    await down(ID); // twice is fine
});
