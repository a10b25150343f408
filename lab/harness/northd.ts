// A real Southbound ovsdb-server and ovn-northd beside a test NB (its directory, ovn-ctl's socket
// names), so NB_Global's nb_cfg → sb_cfg → hv_cfg sequence runs as on a central: the NB
// providers wait for it after every write (components/nb/transact/chassisWait).
import { execFile, spawn, type ChildProcess } from "child_process";
import { join } from "path";
import { promisify } from "util";
import { killChild, killOnExit, waitUntil, type NbServer } from "./nbServer";

const run = promisify(execFile);
export const SB_SCHEMA = "/usr/share/ovn/ovn-sb.ovsschema";

export interface Northd {
    /** Absolute path of the SB unix socket, beside the NB's. */
    sbSocket: string;
    /** Runs ovn-sbctl against this SB and returns its stdout. */
    sbctl(...args: string[]): Promise<string>;
    stop(): Promise<void>;
}

export async function startNorthd(nb: NbServer): Promise<Northd> {
    const dbFile = join(nb.dir, "ovnsb_db.db");
    const sbSocket = join(nb.dir, "ovnsb_db.sock");
    await run("ovsdb-tool", ["create", dbFile, SB_SCHEMA]);
    const sb = spawn(
        "ovsdb-server",
        [dbFile, `--remote=punix:${sbSocket}`, `--unixctl=${join(nb.dir, "sb.ctl")}`, `--log-file=${join(nb.dir, "sb.log")}`],
        { stdio: "ignore" },
    );
    let northd: ChildProcess | undefined;
    killOnExit(() => [sb, northd]);
    sb.unref();
    const sbctl = async (...args: string[]) => (await run("ovn-sbctl", [`--db=unix:${sbSocket}`, ...args])).stdout;
    await waitUntil(`ovsdb-server on ${sbSocket}`, () =>
        sbctl("--timeout=1", "list", "SB_Global").then(
            () => true,
            () => false,
        ),
    );
    northd = spawn(
        "ovn-northd",
        [
            `--ovnnb-db=unix:${nb.socket}`,
            `--ovnsb-db=unix:${sbSocket}`,
            `--unixctl=${join(nb.dir, "northd.ctl")}`,
            `--log-file=${join(nb.dir, "northd.log")}`,
        ],
        { stdio: "ignore" },
    );
    northd.unref();
    // ovn-northd inserts NB_Global on its first run: from then on it answers nb_cfg.
    await waitUntil("ovn-northd's first run", () =>
        nb.nbctl("--bare", "--columns=_uuid", "list", "NB_Global").then(
            (o) => o.trim() !== "",
            () => false,
        ),
    );
    return {
        sbSocket,
        sbctl,
        stop: async () => {
            await killChild(northd);
            await killChild(sb);
        },
    };
}
