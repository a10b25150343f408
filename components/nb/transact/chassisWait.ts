// After a write, wait until every chassis has applied it, as `ovn-nbctl --wait=hv` does: bump
// NB_Global.nb_cfg, then wait until NB_Global.hv_cfg reaches it. ovn-northd copies nb_cfg to the
// SB and sets hv_cfg to the lowest nb_cfg any Chassis_Private reports (ovn northd/ovn-northd.c:541-591
// at v26.03.2), and ovn-controller reports a number only once its flows for it are installed. So
// an `up` that returns means the data path carries the change. The wait runs in ovsdb-server (an
// OVSDB "wait" with a timeout, woken by every commit), not as polling here. A chassis that does
// not catch up within the bound is named from the SB's Chassis_Private.
import type { OvsdbTransactor } from "../../ovsdb/client";
import { mutate, mutation, select, wait, where } from "../../ovsdb/operations";
import { openOvsdbOverSsh } from "../../ssh/ovsdbChannel";
import { NB_DB } from "../core/tables";
import type { NbConnection } from "../kinds/common";
import { endpointOf, privateKeyOf } from "./session";

/** How long create, update and delete wait for the chassis when `nb.chassisWaitSeconds` is absent. */
export const CHASSIS_WAIT_SECONDS = 60;

const SB_DB = "OVN_Southbound";

/**
 * Bumps NB_Global.nb_cfg; the new value, or undefined when NB has no NB_Global row: ovn-northd
 * inserts it when it first runs (ovn-northd.c:530-534), so without it no chassis can report anything.
 */
export async function bumpNbCfg(session: OvsdbTransactor): Promise<number | undefined> {
    const [, read] = await session.transact(NB_DB, [
        mutate("NB_Global", [], [mutation("nb_cfg", "+=", 1)]),
        select("NB_Global", [], ["nb_cfg"]),
    ] as const);
    const value = read.rows[0]?.nb_cfg;
    return typeof value === "number" ? value : undefined;
}

/** Waits in ovsdb-server until hv_cfg ≥ `target`; false when `ms` passed first. */
export async function awaitHvCfg(session: OvsdbTransactor, target: number, ms: number): Promise<boolean> {
    try {
        await session.transact(NB_DB, [
            wait("NB_Global", [where("hv_cfg", "<", target)], { columns: ["hv_cfg"], until: "==", rows: [], timeout: ms }),
        ]);
        return true;
    } catch (err) {
        const e = err as { name?: unknown; error?: unknown };
        if (e?.name === "OvsdbOperationError" && e.error === "timed out") return false;
        throw err;
    }
}

/** The SB socket beside an NB socket, as ovn-ctl lays them out (unix: same directory; tcp: port 6642). */
export function sbSocketBeside(nbSocket: string): string | undefined {
    if (nbSocket.endsWith("/ovnnb_db.sock")) return nbSocket.replace(/ovnnb_db\.sock$/, "ovnsb_db.sock");
    const tcp = /^(tcp:.+):6641$/.exec(nbSocket);
    return tcp ? `${tcp[1]}:6642` : undefined;
}

/** `<hostname> (chassis <name>) at nb_cfg <n>` for each Chassis_Private behind `target`. */
export async function laggingChassis(sb: OvsdbTransactor, target: number): Promise<string[]> {
    const [privates, chassis] = await sb.transact(SB_DB, [
        select("Chassis_Private", [where("nb_cfg", "<", target)], ["name", "nb_cfg"]),
        select("Chassis", [], ["name", "hostname"]),
    ] as const);
    const hostnames = new Map(chassis.rows.map((c) => [String(c.name), String(c.hostname)]));
    return privates.rows
        .map((p) => `${hostnames.get(String(p.name)) || "?"} (chassis ${String(p.name)}) at nb_cfg ${String(p.nb_cfg)}`)
        .sort();
}

async function whoLags(nb: NbConnection, session: OvsdbTransactor, target: number): Promise<string> {
    const [global] = await session.transact(NB_DB, [select("NB_Global", [], ["sb_cfg", "hv_cfg"])] as const);
    const row = global.rows[0] ?? {};
    if (Number(row.sb_cfg) < target)
        return `ovn-northd has not passed it to the SB (sb_cfg ${String(row.sb_cfg)}): is ovn-northd running and connected to this NB and its SB?`;
    const socket = sbSocketBeside(nb.socket);
    if (socket === undefined) return `hv_cfg is ${String(row.hv_cfg)}; list SB Chassis_Private to see which chassis lag`;
    let sb: OvsdbTransactor | undefined;
    try {
        sb = await openOvsdbOverSsh(nb.ssh, privateKeyOf(nb), endpointOf(socket));
        const late = await laggingChassis(sb, target);
        return late.length > 0 ? `behind: ${late.join("; ")}` : `hv_cfg is ${String(row.hv_cfg)}, and no chassis lags any more`;
    } catch (err) {
        return `hv_cfg is ${String(row.hv_cfg)}; the SB at ${socket} could not be read to name the chassis: ${String((err as { message?: unknown })?.message ?? err)}`;
    } finally {
        sb?.close();
    }
}

/**
 * After a committed write on `session`: returns once every chassis has applied it, or throws
 * naming the chassis that did not within `nb.chassisWaitSeconds` (0: no wait).
 */
export async function awaitChassis(nb: NbConnection, session: OvsdbTransactor): Promise<void> {
    const seconds = nb.chassisWaitSeconds ?? CHASSIS_WAIT_SECONDS;
    if (seconds === 0) return;
    const target = await bumpNbCfg(session);
    if (target === undefined || (await awaitHvCfg(session, target, seconds * 1000))) return;
    const error = new Error(
        `NB holds the change, but not every chassis applied it within ${seconds} s (nb_cfg ${target}): ${await whoLags(nb, session, target)}. ` +
            "Bring the chassis' ovn-controller back (or remove the chassis from the SB), then run up again; it converges",
    );
    error.name = "NbChassisLag";
    throw error;
}
