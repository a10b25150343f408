// What the ovnkube-mode scenarios of bench/changes/ share: a lab of Debian unstable hosts brought up
// and applied once, its ovnkube pods running, and torn down whatever happens; and the figures of an
// `up` under probes.
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { ChangeFigures } from "./changes";
import { down } from "@ovn-kubernetes-as-code/lab/localcluster";
import type { OvnKubernetesRelease } from "@ovn-kubernetes-as-code/lab/localcluster";
import { type Traffic, ok, bringUpOvnkubeLab, type OvnkubeLab, waitOvnkubePodsRunning } from "@ovn-kubernetes-as-code/lab/scenarios";

export async function onOvnkubeLab(
    id: string,
    opts: { hosts: number; release?: OvnKubernetesRelease },
    run: (lab: OvnkubeLab) => Promise<ChangeFigures>,
): Promise<ChangeFigures> {
    const work = fs.mkdtempSync(path.join(tmpdir(), `bench-${id}-`));
    try {
        const { lab, first } = await bringUpOvnkubeLab({ id, hosts: opts.hosts, os: "debian-sid", workDir: work, release: opts.release });
        try {
            ok(first, "first up");
            await waitOvnkubePodsRunning(lab.admin, lab.model.kube, 120_000);
            return await run(lab);
        } finally {
            lab.admin.close();
        }
    } finally {
        await down(id);
        fs.rmSync(work, { recursive: true, force: true });
    }
}

/** The figures of an `up` that took `upSeconds` while `traffic` was probed. */
export const underProbes = (upSeconds: number, traffic: readonly Traffic[]): ChangeFigures => ({
    upSeconds,
    sent: traffic.reduce((n, t) => n + t.sent, 0),
    lost: traffic.reduce((n, t) => n + t.lost, 0),
});
