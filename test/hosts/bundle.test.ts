// The script bundle on a real host: commands run their bodies from the installed bundle, keep
// only one line per stream in their output (the rest goes to a log file on the host), and a
// command recorded by an older package (another bundle digest) still runs that package's code,
// beside the new bundle, until its bundle is removed. The ScriptBundle resource's provider
// installs the bundle and runs the host's package step from it.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { test } from "node:test";
import { rememberProviderConfig } from "../../components/dynamic/providerConfig";
import { scriptBundleProvider } from "../../components/hosts/scriptBundle";
import { hostModel } from "./fixtures";
import type { LocalCluster } from "../../lab/localcluster";
import * as scripts from "../../components/hosts/scripts";
import { OVNKUBE_ITP_RULE, TABLES_BEFORE } from "../../components/hosts/scripts/ovnkubeNode";
import {
    BUNDLE_ROOT,
    bundleInstallCommand,
    bundleRemoveCommand,
    bundleStdin,
    scriptBundle,
    type ScriptBundle,
} from "../../components/hosts/scripts/bundle";
import { inHost, labHost, ovsdbAddresses, ovsHostLab } from "./support/lab";
import { runOk, runScript } from "./support/remote";

const ID = "hostsbnd";
const H = "node1";
let lab: LocalCluster;

const sha256 = (t: string) => createHash("sha256").update(t).digest("hex");

/** The bundle an older package would ship: one body changed (it says which version runs). */
function olderBundle(): ScriptBundle {
    const files = { ...scriptBundle().files };
    files["common.sh"] += "\nlog 'older package code running'\n";
    delete files.SHA256SUMS;
    files.SHA256SUMS = Object.keys(files)
        .sort()
        .map((f) => `${sha256(files[f])}  ${f}\n`)
        .join("");
    const digest = sha256(files.SHA256SUMS);
    return { digest, id: digest.slice(0, 16), dir: `${BUNDLE_ROOT}/${digest.slice(0, 16)}`, files };
}
/** A command as that older package generated it: the same text, calling its own bundle. */
const olderCommand = (older: ScriptBundle, text: string) => text.split(scriptBundle().dir).join(older.dir);

ovsHostLab(ID, (l) => (lab = l));

test("a command's create and delete run from the installed bundle; the output is the result and one log line", async () => {
    const cleanup = scripts.ovnkubeNodeCleanupScript(H, { masqueradeSubnets: ["169.254.169.0/29"] });
    const created = await runOk(lab, H, cleanup.create);
    assert.equal(created.stdout, "");
    assert.equal(created.stderr, "log /var/log/ovn-kubernetes-as-code/ovnkube-node-record.log\n");
    assert.match(created.log, /^== \S+Z ovnkube-node-record \(exit 0\)\n/);
    assert.ok((await inHost(lab, H, `test -f ${TABLES_BEFORE} && echo recorded`)).includes("recorded"), "the bundle's body ran");
    const deleted = await runOk(lab, H, cleanup.delete!);
    assert.equal(deleted.stderr, "log /var/log/ovn-kubernetes-as-code/ovnkube-node-cleanup.log\n");
    assert.equal((await runScript(lab, H, `test -e ${TABLES_BEFORE}`)).code, 1, "the delete's body ran");
    assert.equal((await inHost(lab, H, "stat -c %a /var/log/ovn-kubernetes-as-code/ovnkube-node-cleanup.log")).trim(), "600");
});

test("the ovnkube-node cleanup removes ovnkube-node's ip rules and its table's routes through the management port, and no one else's", async () => {
    const { priority, mark, table } = OVNKUBE_ITP_RULE;
    const cleanup = scripts.ovnkubeNodeCleanupScript(H, { masqueradeSubnets: ["169.254.169.0/29"] });
    const lines = async (cmd: string) =>
        (await inHost(lab, H, cmd))
            .split("\n")
            .map((l) => l.replace(/\s+/g, " ").trim())
            .filter(Boolean)
            .sort();
    const rules = () => lines("ip -N -4 rule show; ip -N -6 rule show | sed 's/^/v6 /'");
    const tableRoutes = () => lines(`ip -4 route show table ${table}`);
    const before = await rules();
    const ours = [
        `ip -4 rule add fwmark ${mark} lookup ${table} prio ${priority}`,
        `ip -6 rule add fwmark ${mark} lookup ${table} prio ${priority}`,
    ];
    // As ovnkube-node makes them (a veth stands for its management port), and a user's rules and
    // route that differ from them in one selector each.
    const users = [
        `ip -4 rule add fwmark ${mark} lookup ${table} prio 31`,
        `ip -4 rule add fwmark 0x99 lookup ${table} prio ${priority}`,
        `ip -6 rule add fwmark ${mark} lookup 8 prio ${priority}`,
    ];
    await inHost(
        lab,
        H,
        [
            "ip link add ovn-k8s-mp0 type veth peer name ovn-k8s-mp0p",
            "ip link set ovn-k8s-mp0 up",
            "ip link set ovn-k8s-mp0p up",
            `ip route add table ${table} 10.96.0.0/16 dev ovn-k8s-mp0`,
            `ip route add table ${table} 192.0.2.0/24 dev eth0`,
            ...ours,
            ...users,
        ].join(" && "),
    );
    try {
        assert.equal((await rules()).length, before.length + 5);
        await runOk(lab, H, cleanup.delete!);
        assert.deepEqual(
            await rules(),
            [
                ...before,
                `${Number(priority) + 1}: from all fwmark ${mark} lookup ${table}`,
                `${priority}: from all fwmark 0x99 lookup ${table}`,
                `v6 ${priority}: from all fwmark ${mark} lookup 8`,
            ].sort(),
        );
        assert.deepEqual(await tableRoutes(), ["192.0.2.0/24 dev eth0 scope link"]);

        // A user's rule with the same priority, mark and table and one more selector: the kernel
        // could delete it for ours, so both stay, and the log says why.
        await inHost(lab, H, [...ours, `ip -4 rule add from 10.9.0.0/16 fwmark ${mark} lookup ${table} prio ${priority}`].join(" && "));
        const run = await runOk(lab, H, cleanup.delete!);
        assert.match(run.log, new RegExp(`left the -4 rules of priority ${priority} with fwmark ${mark}`));
        const left = await rules();
        assert.ok(
            left.includes(`${priority}: from all fwmark ${mark} lookup ${table}`) &&
                left.includes(`${priority}: from 10.9.0.0/16 fwmark ${mark} lookup ${table}`),
            left.join("\n"),
        );
        assert.ok(!left.includes(`v6 ${priority}: from all fwmark ${mark} lookup ${table}`), "the IPv6 rule, alone of its kind, went");
    } finally {
        await inHost(
            lab,
            H,
            [
                "ip link del ovn-k8s-mp0 2>/dev/null",
                `ip route flush table ${table}`,
                `while ip -4 rule del prio ${priority} fwmark ${mark} 2>/dev/null; do :; done`,
                `ip -4 rule del prio ${priority} fwmark 0x99 2>/dev/null`,
                `ip -4 rule del prio ${Number(priority) + 1} 2>/dev/null`,
                `ip -6 rule del prio ${priority} 2>/dev/null`,
                "true",
            ].join("; "),
        );
    }
    assert.deepEqual(await rules(), before);
});

test("a failed run prints its stderr and still names its log", async () => {
    const host = labHost(lab.hosts[0], { k8sApiServer: "https://10.0.0.1:6443" });
    const r = await runScript(lab, H, scripts.chassisScript(host, ovsdbAddresses(lab.hosts[0])).create);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /^error: secret k8s-api-token is required on stdin/m);
    assert.match(r.stderr, /\nlog \/var\/log\/ovn-kubernetes-as-code\/chassis-create\.log\n$/);
    assert.match(
        (await runScript(lab, H, "tail -n 3 /var/log/ovn-kubernetes-as-code/chassis-create.log")).stdout,
        /secret k8s-api-token is required on stdin/,
    );
});

test("after a change of a script, a command recorded by the older package runs the older code until its bundle is removed", async () => {
    const older = olderBundle();
    assert.notEqual(older.digest, scriptBundle().digest);
    const install = await runScript(lab, H, bundleInstallCommand(older.digest), bundleStdin(older));
    assert.equal(install.code, 0, install.stderr);
    const cleanup = scripts.ovnkubeNodeCleanupScript(H, { masqueradeSubnets: ["169.254.169.0/29"] });
    // Created by the older package, its delete recorded in state; the newer bundle is installed beside it.
    const oldCreate = await runOk(lab, H, olderCommand(older, cleanup.create));
    assert.match(oldCreate.log, /older package code running/);
    const present = await runOk(lab, H, bundleInstallCommand(scriptBundle().digest), bundleStdin(scriptBundle()));
    assert.equal(present.stdout.trim(), `bundle ${scriptBundle().id} present`);
    assert.deepEqual(
        (await inHost(lab, H, `ls ${BUNDLE_ROOT}`)).trim().split("\n").sort(),
        [older.id, scriptBundle().id].sort(),
        "both versions side by side",
    );
    // The newer package's command runs the newer code; the recorded delete the older one.
    assert.doesNotMatch((await runOk(lab, H, cleanup.create)).log, /older package code running/);
    const oldDelete = await runOk(lab, H, olderCommand(older, cleanup.delete!));
    assert.match(oldDelete.log, /older package code running/);
    // Once nothing refers to it, the older bundle goes; the newer stays, and the older text now says what is missing.
    await runOk(lab, H, bundleRemoveCommand(older.digest));
    assert.equal((await inHost(lab, H, `ls ${BUNDLE_ROOT}`)).trim(), scriptBundle().id);
    const orphan = await runScript(lab, H, olderCommand(older, cleanup.delete!));
    assert.notEqual(orphan.code, 0);
    assert.match(orphan.stderr, new RegExp(`${older.dir}/run\\.sh: No such file or directory`));
});

test("a bundle that does not match its digest is refused and nothing is installed", async () => {
    const bundle = scriptBundle();
    const tampered = bundleStdin(bundle).replace(/^(common\.sh )\S+$/m, `$1${Buffer.from("echo tampered\n").toString("base64")}`);
    const other = "0".repeat(64);
    const r = await runScript(lab, H, bundleInstallCommand(other), tampered);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /does not match its digest/);
    assert.equal((await inHost(lab, H, `ls -A ${BUNDLE_ROOT}`)).trim(), bundle.id, "no directory and no leftover");
});

test("the bundle's provider runs the host's package step from the bundle it installed; a failed step in a create leaves no bundle, another pin is an update that runs it again", async () => {
    const KEY_CONFIG = "ovn-kubernetes:sshPrivateKey";
    const key = fs.readFileSync(lab.privateKeyPath, "utf8");
    await rememberProviderConfig({ config: { get: (k: string) => (k === KEY_CONFIG ? key : undefined) } } as never);
    const host = lab.hosts[0];
    const base = {
        ssh: { host: host.ip, port: host.sshPort, user: "root", hostKey: host.hostKeyLine },
        privateKeyConfig: KEY_CONFIG,
        digest: scriptBundle().digest,
    };
    const step = (over: Parameters<typeof hostModel>[0], pins: Parameters<typeof scripts.packagesScript>[1] = {}) =>
        scripts.packagesScript(hostModel({ name: H, packages: ["openvswitch-switch"], ...over }), pins).create;
    const log = () => inHost(lab, H, "cat /var/log/ovn-kubernetes-as-code/packages-install.log");
    const bundleThere = async () => (await inHost(lab, H, `ls -A ${BUNDLE_ROOT}`)).trim().split("\n").includes(scriptBundle().id);
    await runOk(lab, H, bundleRemoveCommand(scriptBundle().digest));

    // A step that fails (an RPM host's step on this Debian host: no dnf) fails the create naming the host, and takes the bundle away again.
    await assert.rejects(scriptBundleProvider.create!({ ...base, packages: step({ os: "rhel" }) }), (err: Error) => {
        assert.match(err.message, new RegExp(`^packages on ${host.ip.replace(/\./g, "\\.")}: exited 127`));
        assert.ok(!err.message.includes(key.split("\n")[1]), "no key in the error");
        return true;
    });
    assert.equal(await bundleThere(), false, "no bundle left that no resource records");

    const created = await scriptBundleProvider.create!({ ...base, packages: step({}) });
    assert.equal(await bundleThere(), true);
    assert.equal(created.outs.packages, step({}));
    assert.match(await log(), /packages already installed: openvswitch-switch\n/);

    // Another pin: an update, not a replace, that runs the step again with the new pin.
    const version = (await inHost(lab, H, "dpkg-query -W -f='${Version}' openvswitch-switch")).trim();
    const pinned = { ...base, packages: step({}, { openvswitchVersion: version }) };
    assert.deepEqual(await scriptBundleProvider.diff!(created.id, created.outs, pinned), { changes: true, replaces: [] });
    await scriptBundleProvider.update!(created.id, created.outs, pinned);
    assert.match(await log(), new RegExp(`packages already installed: openvswitch-switch=${version.replace(/[.+]/g, "\\$&")}\n`));
    assert.deepEqual(await scriptBundleProvider.diff!(created.id, { ...pinned, fingerprint: created.outs.fingerprint }, pinned), {
        changes: false,
        replaces: [],
    });

    await scriptBundleProvider.delete!(created.id, created.outs);
    assert.equal(await bundleThere(), false);
    await runOk(lab, H, bundleInstallCommand(scriptBundle().digest), bundleStdin(scriptBundle()));
});
