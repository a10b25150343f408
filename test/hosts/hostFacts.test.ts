// The host facts check of a script bundle, against a real Debian 13 host (own root) over its sshd:
// at check (every preview and up) it refuses a node whose `os` is not the family the host runs,
// an extra repository whose file a package ships or whose id a distribution repository has, and a
// shared gateway whose physicalIp its NIC does not hold; create refuses the same before the
// bundle lands. Each refusal names the node, the setting and what to do.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { after, before, test } from "node:test";
import { rememberProviderConfig } from "../../components/dynamic/providerConfig";
import type { HostFactsPlan } from "../../components/hosts/hostFacts";
import { scriptBundleProvider } from "../../components/hosts/scriptBundle";
import { BUNDLE_ROOT, scriptBundle } from "../../components/hosts/scripts/bundle";
import { closeSshPool } from "../../components/ssh/pool";
import { down, up, type LocalCluster } from "../../lab/localcluster";
import { inHost, labHost, startLab } from "./support/lab";
import { ovsStartScript } from "../../components/hosts/scripts";
import { runOk } from "./support/remote";

const ID = "hostsfct";
/** A Debian 12 host with Open vSwitch running, for a NIC already on a bridge. */
const OVS_ID = "hostsfcu";
const H = "node1";
const KEY_CONFIG = "ovn-kubernetes:sshPrivateKey";
let lab: LocalCluster;
let ovsLab: LocalCluster;
let started = 0;

/** Each lab logs in with its own key: the provider's configuration holds the one of the lab asked. */
async function useKeyOf(l: LocalCluster): Promise<void> {
    const key = fs.readFileSync(l.privateKeyPath, "utf8");
    await rememberProviderConfig({ config: { get: (k: string) => (k === KEY_CONFIG ? key : undefined) } } as never);
}

before(async () => {
    started = Date.now();
    await down(ID);
    lab = await up({ id: ID, hosts: 1, os: "debian13" });
    ovsLab = await startLab(OVS_ID, 1);
    await runOk(ovsLab, H, ovsStartScript(labHost(ovsLab.hosts[0])).create);
    await useKeyOf(lab);
});
after(async () => {
    closeSshPool();
    await down(ID);
    await down(OVS_ID);
    console.log(`# host facts checks: ${((Date.now() - started) / 1000).toFixed(1)} s with the lab's bring-up and teardown`);
});

const host = () => lab.hosts[0];
const own = () => `${host().ip}/${lab.prefixLen}`;
/** The host as the stack would describe it: Debian, no extra repository, a shared gateway on eth0 with its own address. */
const plan = (over: Partial<HostFactsPlan> = {}): HostFactsPlan => ({
    node: H,
    packages: { os: "debian" },
    gateway: { interface: "eth0", bridge: "breth0", physicalIp: own() },
    ...over,
});
const inputs = (hostFacts: HostFactsPlan, on = host()) => ({
    ssh: { host: on.ip, port: on.sshPort, user: "root", hostKey: on.hostKeyLine },
    privateKeyConfig: KEY_CONFIG,
    digest: scriptBundle().digest,
    hostFacts,
});
/** The check's refusal of the host's facts, as the engine would show it; undefined when it passes. */
async function refusal(hostFacts: HostFactsPlan, on = host()): Promise<string | undefined> {
    const r = await scriptBundleProvider.check!({}, inputs(hostFacts, on));
    assert.ok(
        (r.failures ?? []).every((f) => f.property === "hostFacts"),
        JSON.stringify(r.failures),
    );
    return r.failures?.[0]?.reason;
}

test("a host that is what the stack says passes: Debian 13, its NIC's own address, a repository name of its own", async () => {
    assert.equal(await refusal(plan()), undefined);
    assert.equal(await refusal(plan({ packages: { os: "debian", repository: "ovn-extra" } })), undefined);
});

test("a node whose os is rhel on a Debian host is refused naming the node, the setting, what the host runs and the fix; create installs nothing", async () => {
    const wrong = plan({ packages: { os: "rhel" } });
    const reason = (await refusal(wrong))!;
    assert.match(
        reason,
        /^node1: nodes\[\]\.os is rhel, but the host runs Debian GNU\/Linux 13 \(trixie\) \(ID=debian\), of the debian family: set os: debian on node node1$/,
    );
    await assert.rejects(scriptBundleProvider.create!(inputs(wrong)), { message: reason });
    assert.equal((await inHost(lab, H, `ls -A ${BUNDLE_ROOT} 2>/dev/null || true`)).trim(), "", "no bundle installed");
});

test("a host of neither family is refused with what to do", async () => {
    await inHost(
        lab,
        H,
        'cp /etc/os-release /tmp/os-release.orig && printf \'ID=opensuse-leap\\nID_LIKE="suse opensuse"\\nPRETTY_NAME="openSUSE Leap 15.6"\\n\' >/etc/os-release',
    );
    try {
        assert.match(
            (await refusal(plan()))!,
            /^node1: nodes\[\]\.os is debian, but the host runs openSUSE Leap 15\.6 \(ID=opensuse-leap, ID_LIKE=suse opensuse\), neither debian nor rhel: .*packages\.skip: true/,
        );
    } finally {
        await inHost(lab, H, "cp /tmp/os-release.orig /etc/os-release");
    }
});

test("a repository whose file a package ships is refused naming the file and the package", async () => {
    // A vendor's package that ships its own apt source, installed with dpkg as any package is.
    await inHost(
        lab,
        H,
        [
            "set -e",
            "d=$(mktemp -d)",
            "mkdir -p $d/DEBIAN $d/etc/apt/sources.list.d",
            "printf 'Package: vendor-archive\\nVersion: 1.0\\nArchitecture: all\\nMaintainer: lab <lab@example.com>\\nDescription: ships an apt source\\n' >$d/DEBIAN/control",
            "echo 'deb https://vendor.example.com/debian trixie main' >$d/etc/apt/sources.list.d/vendor.list",
            "dpkg-deb --build $d /tmp/vendor-archive.deb >/dev/null",
            "dpkg -i /tmp/vendor-archive.deb >/dev/null",
        ].join("\n"),
    );
    assert.match(
        (await refusal(plan({ packages: { os: "debian", repository: "vendor" } })))!,
        /^node1: packages\.repository\.name vendor would overwrite \/etc\/apt\/sources\.list\.d\/vendor\.list, which package vendor-archive ships: choose a name of the repository's own$/,
    );
});

test("on rhel, a repository whose id a distribution repository already has is refused naming the file", async () => {
    await inHost(
        lab,
        H,
        "mkdir -p /etc/yum.repos.d && printf '[baseos]\\nname=BaseOS\\nbaseurl=https://mirror.example.com/baseos\\n' >/etc/yum.repos.d/distro.repo",
    );
    const reason = (await refusal(plan({ packages: { os: "rhel", repository: "baseos" } })))!;
    assert.match(
        reason,
        /node1: packages\.repository\.name baseos is already a repository id in \/etc\/yum\.repos\.d\/distro\.repo: choose a name of the repository's own/,
    );
    // A name of its own passes that rule (the os rule still refuses rhel on this host).
    assert.doesNotMatch((await refusal(plan({ packages: { os: "rhel", repository: "ovn-extra" } })))!, /repository/);
});

test("a shared gateway's physicalIp that the NIC does not hold is refused naming what it holds; once moved, the bridge's address counts", async () => {
    const other = host().ip.replace(/\.(\d+)$/, (_, d) => `.${Number(d) + 100}`);
    assert.equal(
        await refusal(plan({ gateway: { interface: "eth0", bridge: "breth0", physicalIp: `${other}/${lab.prefixLen}` } })),
        `node1: gateway.physicalIp ${other}/${lab.prefixLen} is not eth0's own address: eth0 holds ${own()}: set physicalIp to the address the NIC holds`,
    );
    // Another prefix is another LAN: refused as well.
    assert.match(
        (await refusal(plan({ gateway: { interface: "eth0", bridge: "breth0", physicalIp: `${host().ip}/16` } })))!,
        /is not eth0's own address: eth0 holds/,
    );
    assert.equal(
        await refusal(plan({ gateway: { interface: "eth9", bridge: "breth9", physicalIp: own() } })),
        `node1: gateway.physicalIp ${own()} is not eth9's own address: the host has no device eth9: name the NIC in gateway.interface`,
    );
    // After the move the address lives on the bridge (a veth stands for it here).
    await inHost(lab, H, `ip link add brdummy0 type veth peer name brdummy1 && ip addr add ${other}/${lab.prefixLen} dev brdummy0`);
    assert.equal(
        await refusal(plan({ gateway: { interface: "eth0", bridge: "brdummy0", physicalIp: `${other}/${lab.prefixLen}` } })),
        undefined,
    );
});

test("a NIC already on another OVS bridge (a bridge being renamed) is judged by that bridge's address", async () => {
    const on = ovsLab.hosts[0];
    await useKeyOf(ovsLab);
    const address = on.ip.replace(/\.(\d+)$/, (_, d) => `.${Number(d) + 100}`);
    // A NIC on the old bridge, whose internal port holds the NIC's address, as a move leaves them.
    await inHost(
        ovsLab,
        H,
        [
            "ip link add gwnic0 type veth peer name gwnic1",
            "ovs-vsctl add-br brold0 -- set bridge brold0 datapath_type=netdev -- add-port brold0 gwnic0",
            `ip link set brold0 up && ip addr add ${address}/${ovsLab.prefixLen} dev brold0`,
        ].join(" && "),
    );
    const gateway = { interface: "gwnic0", bridge: "brnew0", physicalIp: `${address}/${ovsLab.prefixLen}` };
    assert.equal(await refusal({ node: H, gateway }, on), undefined);
    assert.equal(
        await refusal({ node: H, gateway: { ...gateway, physicalIp: `${on.ip}/${ovsLab.prefixLen}` } }, on),
        `node1: gateway.physicalIp ${on.ip}/${ovsLab.prefixLen} is not gwnic0's own address: gwnic0 holds ${address}/${ovsLab.prefixLen} (on brold0): set physicalIp to the address the NIC holds`,
    );
});
