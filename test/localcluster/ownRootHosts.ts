// What every host on its own root shows, whatever its system: the recorded system and base, its
// own name over SSH (pinned host keys), and the base's sshd answering rather than this machine's.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { status } from "../../lab/localcluster";
import type { LocalCluster, OwnRootOs } from "../../lab/localcluster";
import { inHostRoot } from "../../lab/localcluster/holder";
import { runOk } from "../hosts/support/remote";

/** Checks every host of `cluster`; returns, per host, `hostname` and its /etc/os-release and /etc/debian_version as read over SSH. */
export async function checkOwnRootHosts(cluster: LocalCluster, os: OwnRootOs, base: string): Promise<Map<string, string>> {
    const s = await status(cluster.id);
    assert.equal(s.healthy, true);
    const releases = new Map<string, string>();
    for (const h of cluster.hosts) {
        assert.equal(h.os, os);
        assert.equal(h.base, base);
        // runOk logs in with StrictHostKeyChecking=yes against the pinned keys.
        const out = (await runOk(cluster, h.name, "hostname; cat /etc/os-release /etc/debian_version")).stdout;
        assert.match(out, new RegExp(`^${h.name}\n`));
        // The running sshd is the host's own /usr/sbin/sshd, which is the base's, not this machine's.
        const sshdPid = s.hosts.find((x) => x.name === h.name)?.sshdPid;
        assert.ok(sshdPid, `sshd of ${h.name} runs`);
        const running = fs.statSync(`/proc/${sshdPid}/exe`);
        const own = fs.statSync(inHostRoot(h.holderPid, "/usr/sbin/sshd"));
        assert.deepEqual([running.dev, running.ino], [own.dev, own.ino]);
        assert.ok(fs.readFileSync(`/proc/${sshdPid}/exe`).equals(fs.readFileSync(path.join(base, "usr/sbin/sshd"))));
        assert.ok(!fs.readFileSync(`/proc/${sshdPid}/exe`).equals(fs.readFileSync("/usr/sbin/sshd")));
        releases.set(h.name, out);
    }
    return releases;
}
