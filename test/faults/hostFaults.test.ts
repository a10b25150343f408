// Faults during a Pulumi-mode up on one lab of 3 hosts, in the order a real bring-up meets them:
// one host unreachable for the whole up (its SSH packets dropped, not refused; then the same up
// with --continue-on-error, which the other hosts finish), its disk full during
// the script bundle's install, its SSH going silent while its chassis command runs, then the engine
// killed (SIGKILL of its process group) during the host commands and again during the NB writes;
// a whole up from bare hosts under 5% packet loss; last, a new release of the package whose script
// bundle meets a full disk on one host, the old bundle in place.
// Each cell proves what the user sees and that the next up converges with no step on any host
// (docs/faults.md).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { desiredNorthbound } from "../../components/render/northbound";
import { hostExec } from "../../lab/localcluster";
import { formatMatrix, managementPortMatrix } from "../../lab/localcluster/checks";
import { apply, destroy, type OperationResult } from "../../lab/offline/api";
import { bringUpPulumiLab, type PulumiLab } from "../../lab/scenarios/pulumiLab";
import { bundlesOn, commandRunningOn, upKilledAt } from "../../lab/scenarios/killedUp";
import { SILENT_DIAL_BOUND_S, SILENT_PEER_BOUND_S } from "../../lab/offline/ssh";
import { BUNDLE_ROOT } from "../../components/hosts/scripts/bundle";
import { reportFaultCell, secondsSince } from "../support/faultMatrix";
import { projectWithPackageCopy } from "../../lab/harness/packageCopy";

const ID = "fault";
const DOWN = "node2";
/** One SSH connect timeout (20 s, components/ssh/connect.ts) and the program's start, with slack for a loaded machine. */
const UNREACHABLE_WITHIN_S = 60;
let lab: PulumiLab;

const sh = async (host: string, argv: string[]) => {
    const r = await hostExec(lab.cluster, host, argv);
    assert.equal(r.code, 0, `${host}: ${argv.join(" ")}: ${r.stderr}`);
    return r.stdout;
};
const ipOf = (name: string) => lab.cluster.hosts.find((h) => h.name === name)!.ip;
const central = () => lab.model.hosts.find((h) => h.isCentral)!.name;
const statePath = () => path.join(lab.work, "state", `${lab.options.stack}.json`);
const stateNames = (): string[] =>
    fs.existsSync(statePath()) ? (JSON.parse(fs.readFileSync(statePath(), "utf8")).resources as { name: string }[]).map((r) => r.name) : [];
const changed = (r: OperationResult) => r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`);
const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
    const t0 = Date.now();
    const r = await f();
    return [r, (Date.now() - t0) / 1000];
};
/** Underlay loss: the share of packets every host drops of those it receives from any other (iptables' statistic match; this kernel has no netem). */
const LOSS = 0.05;
const lossOnEveryHost = (on: boolean) =>
    Promise.all(
        lab.cluster.hosts.flatMap((h) =>
            ["iptables", "ip6tables"].map((tool) =>
                sh(h.name, [
                    tool,
                    on ? "-I" : "-D",
                    "INPUT",
                    "!",
                    "-i",
                    "lo",
                    "-m",
                    "statistic",
                    "--mode",
                    "random",
                    "--probability",
                    String(LOSS),
                    "-j",
                    "DROP",
                ]),
            ),
        ),
    );
// Packets to the host's sshd vanish: a connect sees no answer, as behind a dead link.
const dropSsh = (on: boolean) => sh(DOWN, ["iptables", on ? "-I" : "-D", "INPUT", "-p", "tcp", "--dport", "22", "-j", "DROP"]);

/** What the host's bundle directory holds, hidden entries (an install's incoming directory) included. */
const bundles = (host: string) => bundlesOn(lab.cluster, host);

/** Rows of `table` the stack owns, by name: a row written twice shows up twice. */
const ownedNames = async (table: string) =>
    (
        await sh(central(), [
            "ovn-nbctl",
            "--bare",
            "--columns=name",
            "find",
            table,
            `external_ids:pulumi-owner="ovn-kubernetes/${lab.options.stack}"`,
        ])
    )
        .split("\n")
        .filter(Boolean)
        .sort();

before(async () => {
    lab = await bringUpPulumiLab(ID, 3);
    assert.notEqual(central(), DOWN, "the unreachable host is a chassis, not the central");
});

after(async () => {
    if (lab) await lab.close();
});

test("one host unreachable for the whole up: preview and up name it within the stated time; nothing of it is configured; with --continue-on-error the other hosts finish", async (t) => {
    await dropSsh(true);
    const [preview, previewS] = await timed(() => apply({ ...lab.options, dryRun: true }));
    assert.equal(preview.ok, false);
    assert.match(preview.error!, new RegExp(ipOf(DOWN).replace(/\./g, "\\.")), preview.error);
    assert.match(preview.error!, new RegExp(DOWN), preview.error);
    assert.ok(previewS < UNREACHABLE_WITHIN_S, `preview took ${previewS} s`);

    const [up, upS] = await timed(() => apply(lab.options));
    assert.equal(up.ok, false);
    assert.match(up.error!, new RegExp(ipOf(DOWN).replace(/\./g, "\\.")), up.error);
    assert.match(up.error!, new RegExp(DOWN), up.error);
    // One connect timeout, no second wait for a key probe that could not answer either.
    assert.match(up.error!, /no answer within 20 s/, up.error);
    assert.ok(upS < UNREACHABLE_WITHIN_S, `up took ${upS} s`);
    console.log(`# unreachable ${DOWN}: preview failed in ${previewS.toFixed(1)} s, up in ${upS.toFixed(1)} s: ${up.error}`);
    reportFaultCell(t, {
        fault: "one host unreachable (SSH packets dropped)",
        point: "the whole up",
        mode: "Pulumi",
        outcome: `preview failed in ${previewS.toFixed(1)} s, up in ${upS.toFixed(1)} s, naming ${DOWN}; nothing of it made`,
    });

    // Nothing of the host: no resource recorded, no bundle, no switch, no chassis.
    const ofDown = () => stateNames().filter((n) => n.startsWith(`${DOWN}-`) || n.startsWith(`ovn-${DOWN}-`));
    assert.deepEqual(ofDown(), []);

    // `pulumi up --continue-on-error`: the other hosts finish; the up still fails, naming the host.
    const [cont, contS] = await timed(() => apply({ ...lab.options, continueOnError: true }));
    assert.equal(cont.ok, false);
    assert.match(cont.error!, new RegExp(`${DOWN}.*${ipOf(DOWN).replace(/\./g, "\\.")}`), cont.error);
    for (const host of lab.cluster.hosts.map((h) => h.name).filter((h) => h !== DOWN))
        for (const part of ["chassis-controller", "mgmt-port"])
            assert.ok(
                stateNames().some((n) => n.startsWith(`ovn-${host}-`) && n.includes(part)),
                `${host} ${part}: ${stateNames().join(", ")}`,
            );
    assert.deepEqual(ofDown(), []);
    await dropSsh(false);
    reportFaultCell(t, {
        fault: "one host unreachable (SSH packets dropped)",
        point: "the whole up, with --continue-on-error",
        mode: "Pulumi",
        outcome: `the other hosts finished; the up failed in ${contS.toFixed(1)} s, naming ${DOWN}; nothing of it made`,
    });
    assert.deepEqual(await bundles(DOWN), [], `${BUNDLE_ROOT} on ${DOWN}`);
    assert.ok(!(await ownedNames("Logical_Switch")).includes(DOWN));
});

test("a host's disk full during the script bundle's install: the up fails naming the host and the cause; nothing is left half-copied", async (t) => {
    // Two pages: the bundle's first files fit, the rest do not.
    await sh(DOWN, ["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", BUNDLE_ROOT]);
    try {
        const [up, upS] = await timed(() => apply(lab.options));
        assert.equal(up.ok, false);
        assert.match(
            up.error!,
            new RegExp(`ovn-${DOWN}-scripts: create: script bundle \\w+ on ${ipOf(DOWN).replace(/\./g, "\\.")}: exited 1`),
            up.error,
        );
        assert.match(up.error!, /No space left on device/, up.error);
        console.log(`# disk full on ${DOWN}: up failed in ${upS.toFixed(1)} s: ${up.error}`);
        assert.deepEqual(await bundles(DOWN), [], `${BUNDLE_ROOT} on ${DOWN}`);
        reportFaultCell(t, {
            fault: "a host's disk full",
            point: "the script bundle's install",
            mode: "Pulumi",
            outcome: `up failed in ${upS.toFixed(1)} s naming ${DOWN}: No space left on device; no half copy`,
        });
    } finally {
        await sh(DOWN, ["umount", BUNDLE_ROOT]);
    }
});

test("SSH to one host goes silent while its chassis command runs: the up fails naming the host within the stated bound; the other hosts finish; destroy then leaves nothing", async (t) => {
    const running = commandRunningOn(lab.cluster, DOWN, "chassis-create");
    const upRun = timed(() => apply(lab.options));
    // An up that ends before the command runs is a failure of its own, not a wait for the command.
    const ended = await Promise.race([running.then(() => undefined), upRun.then(([r]) => r)]);
    assert.equal(ended, undefined, `the up ended before ${DOWN}'s chassis command ran: ${ended?.error}`);
    await dropSsh(true);
    const silentFrom = Date.now();
    let up: OperationResult;
    try {
        [up] = await upRun;
    } finally {
        await dropSsh(false);
    }
    const silentS = (Date.now() - silentFrom) / 1000;
    assert.equal(up.ok, false);
    // The running command's connection ends after 150 s of silence; a command that dials meanwhile after its 10 tries of 15 s.
    assert.match(
        up.error!,
        new RegExp(
            `ovn-${DOWN}-\\S+: create: (after 9 failed attempts: )?SSH root@${ipOf(DOWN).replace(/\./g, "\\.")}:22: (no answer for ${SILENT_PEER_BOUND_S} s while the command ran|Timed out while waiting for handshake)`,
        ),
        up.error,
    );
    assert.ok(silentS < SILENT_DIAL_BOUND_S + 30, `failed ${silentS} s after the host went silent`);
    console.log(`# ${DOWN} silent mid-command: the up failed ${silentS.toFixed(1)} s later: ${up.error}`);
    // While it waited, the other hosts' commands ran to the end: their chassis and management ports are recorded.
    for (const host of lab.cluster.hosts.map((h) => h.name).filter((h) => h !== DOWN))
        for (const part of ["chassis-controller", "mgmt-port"])
            assert.ok(
                stateNames().some((n) => n.startsWith(`ovn-${host}-`) && n.includes(part)),
                `${host} ${part}: ${stateNames().join(", ")}`,
            );
    // Destroy after the failed up takes off what it made, so the next cells start from bare hosts again.
    const [down, downS] = await timed(() => destroy(lab.options));
    assert.equal(down.ok, true, down.error);
    assert.deepEqual(stateNames(), []);
    for (const h of lab.cluster.hosts) assert.deepEqual(await bundles(h.name), [], h.name);
    reportFaultCell(t, {
        fault: "SSH to one host goes silent (packets dropped)",
        point: "while its chassis command runs",
        mode: "Pulumi",
        outcome: `up failed ${silentS.toFixed(1)} s after, naming ${DOWN}; the other hosts finished; destroy took all off`,
        convergeSeconds: downS,
    });
});

test("the engine killed during the host commands, then during the NB writes: the next up converges, no duplicate NB row, the up after it a no-op", async (t) => {
    const [first, firstS] = await timed(() => upKilledAt(lab.options, /command:remote:Command\s+\S+\s+created/));
    const afterHosts = stateNames();
    const [second, secondS] = await timed(() => upKilledAt(lab.options, /dynamic\/ovn-nb:\S+\s+\S+\s+created/));
    const afterNb = stateNames();
    console.log(`# killed after ${firstS.toFixed(1)} s at: ${first.trim()}\n# killed after ${secondS.toFixed(1)} s at: ${second.trim()}`);

    const [up, upS] = await timed(() => apply(lab.options));
    assert.equal(up.ok, true, up.error);
    const [noop, noopS] = await timed(() => apply(lab.options));
    assert.equal(noop.ok, true, noop.error);
    assert.deepEqual(changed(noop), []);
    console.log(`# converging up ${upS.toFixed(1)} s (${changed(up).length} changes), the next ${noopS.toFixed(1)} s, no changes`);

    // Each kill cut the up short: resources the converged state holds were missing after it.
    const final = stateNames();
    assert.ok(
        final.some((n) => !afterHosts.includes(n)),
        "the first kill came after the whole up",
    );
    assert.ok(
        final.some((n) => !afterNb.includes(n)),
        "the second kill came after the whole up",
    );

    // Every row the model declares is there exactly once.
    const declared = new Map<string, string[]>();
    for (const group of desiredNorthbound(lab.model, `ovn-kubernetes/${lab.options.stack}`))
        for (const row of group.rows)
            if (typeof row.columns.name === "string" && row.columns.name)
                declared.set(row.table, [...(declared.get(row.table) ?? []), row.columns.name]);
    for (const [table, names] of declared) assert.deepEqual(await ownedNames(table), [...names].sort(), table);

    // Every host runs the one bundle, whole: its files are those the digest names.
    for (const h of lab.cluster.hosts) assert.equal((await bundles(h.name)).length, 1, h.name);

    const m = await managementPortMatrix(lab.cluster, lab.model);
    assert.ok(m.allOk, "\n" + formatMatrix(m));
    for (const [point, at] of [
        ["the host commands", firstS],
        ["the NB writes", secondS],
    ] as const)
        reportFaultCell(t, {
            fault: "the engine killed (SIGKILL of its process group)",
            point: `${point}, ${at.toFixed(1)} s into the up`,
            mode: "Pulumi",
            outcome:
                "the next up converged: no duplicate NB row, one whole bundle per host, management ports answer; the up after it a no-op",
            convergeSeconds: upS,
        });
});

test("5% packet loss on the underlay for a whole up from bare hosts: the up completes (its time printed beside the same up without loss); the data path works and the next up is a no-op", async (t) => {
    const bare = async () => {
        const down = await destroy(lab.options);
        assert.equal(down.ok, true, down.error);
    };
    // The same up without loss, for comparison.
    await bare();
    const [clean, cleanS] = await timed(() => apply(lab.options));
    assert.equal(clean.ok, true, clean.error);
    await bare();
    await lossOnEveryHost(true);
    let up: OperationResult, upS: number;
    try {
        [up, upS] = await timed(() => apply(lab.options));
    } finally {
        await lossOnEveryHost(false);
    }
    assert.equal(up.ok, true, up.error);
    const m = await managementPortMatrix(lab.cluster, lab.model);
    assert.ok(m.allOk, "\n" + formatMatrix(m));
    const noop = await apply(lab.options);
    assert.equal(noop.ok, true, noop.error);
    assert.deepEqual(changed(noop), []);
    console.log(`# up under ${LOSS * 100}% loss: ${upS.toFixed(1)} s, without ${cleanS.toFixed(1)} s, ${changed(up).length} changes`);
    reportFaultCell(t, {
        fault: `${LOSS * 100}% packet loss on the underlay`,
        point: "the whole up, from bare hosts",
        mode: "Pulumi",
        outcome: `the up completed in ${upS.toFixed(1)} s (without loss ${cleanS.toFixed(1)} s); management ports answer; the next up a no-op`,
    });
});

test("a new release's script bundle meets a full disk on one host: the up fails naming it and the cause; the old bundle stays whole and runs the host; with space again, the next up moves every host to the new bundle", async (t) => {
    // The release: the package as installed by npm, one of its host scripts changed, so its bundle has a new digest.
    const project = fs.mkdtempSync(path.join(lab.work, "release-"));
    const pkg = projectWithPackageCopy(project, true);
    fs.appendFileSync(path.join(pkg, "dist", "hosts", "scripts", "bash", "common.sh"), "# the next release\n");
    const release = { ...lab.options, projectDir: project };
    const [old] = await bundles(DOWN);
    const oldDir = `${BUNDLE_ROOT}/${old}`;
    // The disk: a tmpfs holding the old bundle and 8 KiB more, over the bundle directory.
    const kib = Number((await sh(DOWN, ["du", "-sk", BUNDLE_ROOT])).split("\t")[0]) + 8;
    await sh(DOWN, [
        "bash",
        "-c",
        'set -e; keep=$(mktemp -d); cp -a "$1"/. "$keep"; mount -t tmpfs -o "size=$2k" tmpfs "$1"; cp -a "$keep"/. "$1"; rm -rf "$keep"',
        "fill",
        BUNDLE_ROOT,
        String(kib),
    ]);
    let failed: OperationResult, failedS: number;
    try {
        [failed, failedS] = await timed(() => apply(release));
        assert.equal(failed.ok, false);
        assert.match(
            failed.error!,
            new RegExp(`ovn-${DOWN}-scripts: .*script bundle \\w+ on ${ipOf(DOWN).replace(/\./g, "\\.")}: exited 1`),
            failed.error,
        );
        assert.match(failed.error!, /No space left on device/, failed.error);
        // Nothing half-copied; the old bundle whole, and the host runs on it.
        assert.deepEqual(await bundles(DOWN), [old]);
        await sh(DOWN, ["bash", "-c", 'cd "$1" && sha256sum --quiet --strict -c SHA256SUMS', "whole", oldDir]);
        const m = await managementPortMatrix(lab.cluster, lab.model);
        assert.ok(m.allOk, "\n" + formatMatrix(m));
    } finally {
        await sh(DOWN, ["umount", BUNDLE_ROOT]);
    }
    const [next, nextS] = await timed(() => apply(release));
    assert.equal(next.ok, true, next.error);
    const noop = await apply(release);
    assert.equal(noop.ok, true, noop.error);
    assert.deepEqual(changed(noop), []);
    for (const h of lab.cluster.hosts) {
        const now = await bundles(h.name);
        assert.equal(now.length, 1, `${h.name}: ${now.join(", ")}`);
        assert.notEqual(now[0], old, `${h.name} runs the new release's bundle`);
    }
    const m = await managementPortMatrix(lab.cluster, lab.model);
    assert.ok(m.allOk, "\n" + formatMatrix(m));
    console.log(
        `# new release, ${DOWN}'s disk full: failed in ${failedS.toFixed(1)} s (${failed.error}); with space, ${changed(next).length} changes in ${nextS.toFixed(1)} s`,
    );
    reportFaultCell(t, {
        fault: "a host's disk full, the old bundle in place",
        point: "a new release's script bundle install",
        mode: "Pulumi",
        outcome: `up failed in ${failedS.toFixed(1)} s naming ${DOWN}: No space left on device; the old bundle whole, the host running on it`,
        convergeSeconds: nextS,
    });
});
