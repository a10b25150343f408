// Debian 13 hosts: each runs on its own overlay of the cached Debian 13 base, reached over its own
// sshd (Debian 13's OpenSSH, pinned key); the program's package step installs Open vSwitch 3.5
// and OVN 25.03 there with apt-get from the base's local repository; `down` leaves nothing. The
// first run on a machine builds the base (about 50-60 s); later runs reuse it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import * as scripts from "../../components/hosts/scripts";
import { down, localStackConfig, up } from "../../lab/localcluster";
import type { LocalCluster, LocalHost } from "../../lab/localcluster";
import { DEBIAN13_BASE, baseDir } from "../../lab/localcluster/debianBase";
import { LAB_DIR_MOUNT, inHostRoot } from "../../lab/localcluster/holder";
import { withMachineLock } from "../../lab/localcluster/machineLock";
import { ownRootLayout } from "../../lab/localcluster/rootfs";
import { hostModel } from "../hosts/fixtures";
import { labHost } from "../hosts/support/lab";
import { installBundle, runOk, runScript } from "../hosts/support/remote";
import { ProcessMark, leftovers, markOf, processesIn, stillRunning } from "./leftovers";
import { checkOwnRootHosts } from "./ownRootHosts";

const ID = "lcdeb13";
let cluster: LocalCluster;
let labDir: string;
let upSeconds = 0;

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

before(async () => {
    await down(ID); // whatever an aborted earlier run left
    labDir = fs.mkdtempSync(path.join(os.tmpdir(), "lc-labdir-"));
    fs.writeFileSync(path.join(labDir, "ovnkube"), "lab binary\n");
    const started = Date.now();
    cluster = await up({ id: ID, hosts: 2, os: "debian13", labDir });
    upSeconds = seconds(started);
});

after(async () => {
    await down(ID);
    fs.rmSync(labDir, { recursive: true, force: true });
});

/** Output of a command run over the host's sshd; fails with its stderr on a non-zero exit. */
const overSsh = async (host: string, command: string) => (await runOk(cluster, host, command)).stdout;

/** The identification line a server sends first. */
function sshBannerLine(ip: string): Promise<string> {
    return new Promise((resolve, reject) => {
        const socket = net.connect({ host: ip, port: 22 });
        socket.setTimeout(5000, () => socket.destroy(new Error(`no SSH banner from ${ip} within 5 s`)));
        socket.on("error", reject);
        socket.once("data", (d) => {
            socket.destroy();
            resolve(d.toString().split("\r\n")[0]);
        });
    });
}

/** Live processes in the host's mount namespace, by command name. */
function processesOfHost(host: LocalHost): string[] {
    const mnt = fs.readlinkSync(`/proc/${host.holderPid}/ns/mnt`);
    const names: string[] = [];
    for (const pid of fs.readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
        try {
            if (fs.readlinkSync(`/proc/${pid}/ns/mnt`) !== mnt) continue;
            const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
            if (stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z") continue;
            names.push(fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim());
        } catch {
            /* exited meanwhile */
        }
    }
    return names;
}

test("every host is Debian 13 behind its own Debian 13 sshd, with the pinned key", async (t) => {
    t.diagnostic(`up 2 --os debian13: ${upSeconds} s (includes building the base when it was not cached)`);
    const releases = await checkOwnRootHosts(cluster, "debian13", baseDir(DEBIAN13_BASE));
    for (const h of cluster.hosts) {
        assert.match(releases.get(h.name)!, /^VERSION_ID="13"$/m);
        assert.match(releases.get(h.name)!, /^VERSION_CODENAME=trixie$/m);
        assert.match(await sshBannerLine(h.ip), /^SSH-2\.0-OpenSSH_10\.\S+ Debian/);
    }
});

test("each host's root is its own overlay, shared for later mounts; the lab directory is read-only inside", async () => {
    const [a, b] = cluster.hosts;
    const marker = `/root/lc-test-${process.pid}`;
    assert.equal((await overSsh(a.name, "findmnt -n -o FSTYPE,PROPAGATION /")).trim().split(/\s+/).join(" "), "overlay shared");
    await overSsh(a.name, `echo written-on-${a.name} > ${marker}`);
    assert.equal((await runScript(cluster, b.name, `test -e ${marker}`)).code, 1, `${marker} visible on ${b.name}`);
    assert.equal(fs.existsSync(marker), false, `${marker} visible on this machine`);
    assert.equal(fs.existsSync(path.join(a.base!, marker)), false, `${marker} written into the shared base`);
    // Where the write landed, and how this machine reads a running host's files.
    assert.equal(fs.readFileSync(path.join(ownRootLayout(a.dir, a.base!).upper, marker), "utf8"), `written-on-${a.name}\n`);
    assert.equal(fs.readFileSync(inHostRoot(a.holderPid, marker), "utf8"), `written-on-${a.name}\n`);
    // The overlay is mounted only inside the host's mount namespace.
    assert.deepEqual(
        fs
            .readFileSync("/proc/self/mountinfo", "utf8")
            .split("\n")
            .filter((l) => l.includes(`${cluster.dir}/hosts`)),
        [],
    );
    // Each host has its own identity.
    const ids = await Promise.all(cluster.hosts.map((h) => overSsh(h.name, "cat /etc/machine-id")));
    assert.match(ids[0], /^[0-9a-f]{32}\n$/);
    assert.notEqual(ids[0], ids[1]);

    for (const h of cluster.hosts) {
        assert.equal(h.labDir, labDir);
        assert.equal(await overSsh(h.name, `cat ${LAB_DIR_MOUNT}/ovnkube`), "lab binary\n");
        const write = await runScript(cluster, h.name, `touch ${LAB_DIR_MOUNT}/new`);
        assert.notEqual(write.code, 0);
        assert.match(write.stderr, /Read-only file system/);
    }
});

test("the stack file for Debian 13 hosts lets the package step run, on the userspace datapath", () => {
    const config = localStackConfig(cluster);
    assert.deepEqual(config.packages, { skip: false });
    assert.equal(config.datapathType, "netdev");
});

test("the program's package step installs Open vSwitch 3.5 and OVN 25.03 from the base's local repository", async (t) => {
    const [central, chassis] = cluster.hosts;
    const ovs = ["openvswitch-common", "openvswitch-switch", "ovn-common"];
    const models = [
        hostModel({ name: central.name, packages: [...ovs, "ovn-central", "ovn-host"] }),
        hostModel({ name: chassis.name, packages: [...ovs, "ovn-host"] }),
    ];
    for (const h of cluster.hosts) {
        assert.notEqual((await runScript(cluster, h.name, "dpkg-query -W openvswitch-switch")).code, 0, `${h.name} starts without OVS`);
    }
    // What the ScriptBundle resource does first on every host: the scripts the package step runs.
    for (const h of cluster.hosts) await installBundle(cluster, h.name);
    const started = Date.now();
    // Hosts have no route to any mirror: apt-get update and install work from the local repository only.
    const runs = await Promise.all(models.map((m) => runOk(cluster, m.name, scripts.packagesScript(m, {}).create)));
    t.diagnostic(`package step on 2 hosts at once: ${seconds(started)} s`);
    for (const r of runs) assert.match(r.log, /installed: openvswitch-common/);

    for (const h of cluster.hosts) {
        assert.match(await overSsh(h.name, "ovs-vsctl --version"), /^ovs-vsctl \(Open vSwitch\) 3\.5\.\d+/);
        assert.match(await overSsh(h.name, "ovn-controller --version"), /^ovn-controller 25\.03\.\d+/);
        // policy-rc.d refused the package scripts' service starts: nothing runs until the program starts it.
        assert.deepEqual(
            processesOfHost(h).filter((n) => /^(ovsdb-server|ovs-vswitchd|ovn-)/.test(n)),
            [],
            `daemons on ${h.name}`,
        );
    }
    assert.match(await overSsh(central.name, "ovn-northd --version"), /^ovn-northd 25\.03\.\d+/);
    assert.equal(fs.existsSync(path.join(central.base!, "usr/bin/ovs-vsctl")), false, "the base stays without OVS");

    const again = await runOk(cluster, chassis.name, scripts.packagesScript(models[1], {}).create);
    assert.match(again.log, /packages already installed/);
    // The installed Open vSwitch runs: the program's own start script, userspace datapath.
    await runOk(cluster, chassis.name, scripts.ovsStartScript(labHost(chassis)).create);
    assert.match(await overSsh(chassis.name, "ovs-vsctl get Open_vSwitch . ovs_version"), /^"3\.5\.\d+"$/m);
});

test("down ends every process and removes every namespace, mount and directory; the base stays cached", async () => {
    const holders = cluster.hosts.map((h) => h.holderPid);
    const marks: ProcessMark[] = [...processesIn(leftovers(ID).netns), ...holders.flatMap(markOf)];
    assert.ok(marks.length >= 7, `holders, sshds and the OVS daemons: ${marks.length}`);

    await down(ID);

    assert.deepEqual(stillRunning(marks), []);
    assert.deepEqual(leftovers(ID), { netns: [], links: [], mounts: [] });
    // No mount namespace anywhere on the machine still holds a host's overlay.
    const holding = fs
        .readdirSync("/proc")
        .filter((e) => /^\d+$/.test(e))
        .filter((pid) => {
            try {
                return fs.readFileSync(`/proc/${pid}/mountinfo`, "utf8").includes(`${cluster.dir}/hosts`);
            } catch {
                return false;
            }
        });
    assert.deepEqual(holding, []);
    assert.equal(fs.existsSync(cluster.dir), false);
    assert.equal(fs.existsSync(path.join(baseDir(DEBIAN13_BASE), "etc/os-release")), true);
});

test("a Debian 12 host sees the lab directory read-only at the same place", async () => {
    const id = "lclabdir";
    await down(id);
    try {
        const bare = await up({ id, hosts: 1, labDir });
        assert.equal(bare.hosts[0].os, "debian12");
        assert.equal(bare.hosts[0].labDir, labDir);
        assert.deepEqual(localStackConfig(bare).packages, { skip: true });
        assert.equal((await runOk(bare, "node1", `cat ${LAB_DIR_MOUNT}/ovnkube`)).stdout, "lab binary\n");
        assert.match((await runScript(bare, "node1", `touch ${LAB_DIR_MOUNT}/new`)).stderr, /Read-only file system/);
        // Only inside the host: this machine's directory of that name stays a bare mount point.
        assert.equal(fs.existsSync(path.join(LAB_DIR_MOUNT, "ovnkube")), false);
    } finally {
        await down(id);
    }
    assert.deepEqual(leftovers(id), { netns: [], links: [], mounts: [] });
});

test("builders of the base take turns under the machine lock, which a killed holder releases", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lc-lock-"));
    const lock = path.join(dir, "base.lock");
    try {
        const spans: Array<[number, number]> = [];
        const hold = () =>
            withMachineLock(lock, async () => {
                const start = Date.now();
                await new Promise((r) => setTimeout(r, 200));
                spans.push([start, Date.now()]);
            });
        await Promise.all([hold(), hold(), hold()]);
        spans.sort((x, y) => x[0] - y[0]);
        for (let i = 1; i < spans.length; i++) assert.ok(spans[i][0] >= spans[i - 1][1], `overlapping holders: ${JSON.stringify(spans)}`);

        // A process that dies while holding the lock (as a crashed build would) must not keep it.
        const holder = spawn(
            process.execPath,
            [
                "--import",
                "tsx",
                "-e",
                `require(${JSON.stringify(require.resolve("../../lab/localcluster/machineLock"))}).withMachineLock(process.argv[1], () => { console.log("held"); return new Promise(() => {}); })`,
                lock,
            ],
            { stdio: ["ignore", "pipe", "inherit"] },
        );
        await new Promise<void>((resolve, reject) => {
            holder.stdout.on("data", (d: Buffer) => d.toString().includes("held") && resolve());
            holder.on("exit", (code) => reject(new Error(`lock holder exited early (${code})`)));
        });
        let told: () => void = () => undefined;
        const waiting = new Promise<void>((resolve, reject) => {
            told = resolve;
            setTimeout(() => reject(new Error("the second builder did not report waiting within 5 s")), 5000).unref();
        });
        const next = withMachineLock(lock, async () => "acquired", { onWait: () => told(), timeoutMs: 20_000 });
        await waiting;
        holder.kill("SIGKILL");
        assert.equal(await next, "acquired");
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
});

test("the base's cache directory is named after its whole recipe", () => {
    const dir = baseDir(DEBIAN13_BASE, "/cache");
    assert.match(dir, /^\/cache\/debian13-[0-9a-f]{12}$/);
    assert.equal(
        baseDir({ ...DEBIAN13_BASE, include: [...DEBIAN13_BASE.include].reverse() }, "/cache"),
        dir,
        "order of the include list does not matter",
    );
    assert.notEqual(baseDir({ ...DEBIAN13_BASE, include: [...DEBIAN13_BASE.include, "tcpdump"] }, "/cache"), dir);
    assert.notEqual(baseDir({ ...DEBIAN13_BASE, repoPackages: ["openvswitch-switch"] }, "/cache"), dir);
    assert.notEqual(baseDir({ ...DEBIAN13_BASE, suite: "forky" }, "/cache"), dir);
});
