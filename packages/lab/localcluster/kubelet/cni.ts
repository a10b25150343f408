// CNI ADD and DEL exactly as a container runtime calls plugins: the configuration from the host's
// configuration directory, each plugin binary found in CNI_PATH and run in the host's mount
// namespace (so the netns path, the plugin's own state and its helpers are the host's) and the
// host's network namespace (where this process lives), with the CNI_* variables and the
// configuration on stdin.
import * as fs from "node:fs";
import * as path from "node:path";
import { NetworkConfigList, PluginConf, configFileNames, delTakesPrevResult, parseNetworkConfig, pluginError, pluginStdin } from "./cniConfig";
import { inHost } from "./hostfs";
import { DEFAULT_PATH } from "./resolve";
import { spawnCollect } from "./spawnCollect";

export interface CniHost {
    holderPid: number;
    /** Configuration directory in the host (the kubelet's --cni-conf-dir, /etc/cni/net.d). */
    confDir: string;
    /** Plugin directories in the host, searched in order (CNI_PATH). */
    binDirs: readonly string[];
}

/** One pod sandbox's attachment, as the runtime names it to the plugins. */
export interface CniAttachment {
    /** 64 hex characters (ovn-k8s-cni-overlay refuses fewer than 15). */
    containerId: string;
    /** The network namespace as a path in the host. */
    netns: string;
    ifname: string;
    args: string;
}

export type NetworkStatus = { ready: true; config: NetworkConfigList } | { ready: false; message: string };

/** Plugins can wait for their daemon (ovnkube's CNI server waits for the pod's annotation). */
const PLUGIN_TIMEOUT_MS = 150_000;

/**
 * Whether the host's network plugin is ready, as the runtime reports it to the kubelet: ready once
 * the configuration directory holds a valid configuration (the first file decides).
 */
export function networkStatus(h: CniHost): NetworkStatus {
    let names: string[] = [];
    try {
        names = configFileNames(fs.readdirSync(inHost(h.holderPid, h.confDir)));
    } catch {
        /* no directory yet: not initialized */
    }
    if (names.length === 0) return { ready: false, message: "Network plugin returns error: cni plugin not initialized" };
    const file = path.posix.join(h.confDir, names[0]);
    try {
        return { ready: true, config: parseNetworkConfig(file, fs.readFileSync(inHost(h.holderPid, file), "utf8")) };
    } catch (e) {
        return { ready: false, message: `Network plugin returns error: cni config load failed: ${(e as Error).message}` };
    }
}

function findPlugin(h: CniHost, type: string): string {
    for (const dir of h.binDirs) {
        const candidate = path.posix.join(dir, type);
        try {
            fs.accessSync(inHost(h.holderPid, candidate), fs.constants.X_OK);
            if (fs.statSync(inHost(h.holderPid, candidate)).isFile()) return candidate;
        } catch {
            /* not in this directory */
        }
    }
    throw new Error(`failed to find plugin ${JSON.stringify(type)} in path [${h.binDirs.join(" ")}]`);
}

async function invoke(h: CniHost, command: "ADD" | "DEL", plugin: PluginConf, stdin: string, a: CniAttachment): Promise<unknown> {
    const binary = findPlugin(h, plugin.type);
    const r = await spawnCollect(["/usr/bin/nsenter", "-t", String(h.holderPid), "-m", "--", binary], {
        env: {
            CNI_COMMAND: command,
            CNI_CONTAINERID: a.containerId,
            CNI_NETNS: a.netns,
            CNI_IFNAME: a.ifname,
            CNI_ARGS: a.args,
            CNI_PATH: h.binDirs.join(":"),
            PATH: DEFAULT_PATH,
        },
        input: stdin,
        timeoutMs: PLUGIN_TIMEOUT_MS,
    });
    if (r.code !== 0) throw new Error(pluginError(plugin.type, command, r.code, r.stdout, r.stderr));
    if (command === "DEL" || r.stdout.trim() === "") return undefined;
    try {
        return JSON.parse(r.stdout);
    } catch {
        throw new Error(`plugin type=${JSON.stringify(plugin.type)} (add): result is not JSON: ${r.stdout.slice(0, 200)}`);
    }
}

/** ADD through every plugin of the list in order, each getting the previous result; returns the last result. */
export async function cniAdd(h: CniHost, list: NetworkConfigList, a: CniAttachment): Promise<unknown> {
    let result: unknown;
    for (const plugin of list.plugins) result = await invoke(h, "ADD", plugin, pluginStdin(list, plugin, result), a);
    return result;
}

/** DEL through the plugins in reverse order, each getting the cached ADD result (CNI 0.4.0 and later). */
export async function cniDel(h: CniHost, list: NetworkConfigList, a: CniAttachment, addResult: unknown): Promise<void> {
    const prev = delTakesPrevResult(list.cniVersion) ? addResult : undefined;
    for (const plugin of [...list.plugins].reverse()) await invoke(h, "DEL", plugin, pluginStdin(list, plugin, prev), a);
}
