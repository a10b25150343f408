// CNI network configuration and results, handled as a container runtime does through libcni
// (containerd's go-cni: the first valid file of the configuration directory, lexically, with
// extension .conf, .conflist or .json; a single-plugin .conf becomes a one-plugin list) and the
// CNI specification (each plugin of a list gets the list's name and cniVersion injected, and the
// previous plugin's result as prevResult). Pure.

export type PluginConf = Record<string, unknown> & { type: string };

export interface NetworkConfigList {
    /** The file it came from (for messages). */
    file: string;
    name: string;
    cniVersion: string;
    plugins: PluginConf[];
}

export const CNI_CONFIG_EXTENSIONS = [".conf", ".conflist", ".json"];

/** A plugin type is a file name looked up in CNI_PATH: nothing that could walk out of those directories. */
const PLUGIN_TYPE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The configuration files a runtime considers, in the order it considers them. */
export function configFileNames(names: readonly string[]): string[] {
    return names.filter((n) => CNI_CONFIG_EXTENSIONS.some((ext) => n.endsWith(ext))).sort();
}

function checkPlugin(p: unknown, file: string): PluginConf {
    const type = (p as { type?: unknown })?.type;
    if (typeof type !== "string" || type === "") throw new Error(`${file}: error parsing configuration: missing 'type'`);
    if (!PLUGIN_TYPE.test(type)) throw new Error(`${file}: plugin type ${JSON.stringify(type)} is not a plain file name`);
    return p as PluginConf;
}

/** Parses one configuration file (.conflist: a list; otherwise a single plugin's configuration). */
export function parseNetworkConfig(file: string, text: string): NetworkConfigList {
    let raw: Record<string, unknown>;
    try {
        raw = JSON.parse(text) as Record<string, unknown>;
    } catch (e) {
        throw new Error(`${file}: not JSON: ${(e as Error).message}`);
    }
    const cniVersion = typeof raw.cniVersion === "string" ? raw.cniVersion : "";
    if (file.endsWith(".conflist")) {
        if (typeof raw.name !== "string" || raw.name === "") throw new Error(`${file}: error parsing configuration list: no name`);
        if (!Array.isArray(raw.plugins)) throw new Error(`${file}: error parsing configuration list: no 'plugins' key`);
        if (raw.plugins.length === 0) throw new Error(`${file}: error parsing configuration list: no plugins in list`);
        return { file, name: raw.name, cniVersion, plugins: raw.plugins.map((p) => checkPlugin(p, file)) };
    }
    const plugin = checkPlugin(raw, file);
    return { file, name: typeof raw.name === "string" ? raw.name : "", cniVersion, plugins: [plugin] };
}

/** What one plugin reads on stdin: its configuration with name, cniVersion and prevResult set. */
export function pluginStdin(list: NetworkConfigList, plugin: PluginConf, prevResult?: unknown): string {
    const conf: Record<string, unknown> = { ...plugin, name: list.name, cniVersion: list.cniVersion };
    if (prevResult !== undefined) conf.prevResult = prevResult;
    else delete conf.prevResult;
    return JSON.stringify(conf);
}

/** libcni caches the ADD result and hands it to DEL as prevResult from CNI 0.4.0 on. */
export function delTakesPrevResult(cniVersion: string): boolean {
    const [major, minor] = cniVersion.split(".").map(Number);
    return major > 0 || (major === 0 && minor >= 4);
}

/** CNI_ARGS as the kubelet's runtimes set them for a pod. */
export function cniArgs(namespace: string, pod: string, uid: string, sandboxId: string): string {
    return `IgnoreUnknown=1;K8S_POD_NAMESPACE=${namespace};K8S_POD_NAME=${pod};K8S_POD_INFRA_CONTAINER_ID=${sandboxId};K8S_POD_UID=${uid}`;
}

interface CniResult {
    interfaces?: Array<{ name?: string; sandbox?: string }>;
    ips?: Array<{ address?: string; interface?: number }>;
    ip4?: { ip?: string };
    ip6?: { ip?: string };
}

/**
 * The pod's addresses from the final result: those of the pod's interface (IPv4 first), or every
 * address when the result names no interfaces (CNI 0.2.0 `ip4`/`ip6` results, or plugins that omit them).
 */
export function podIPsFromResult(result: unknown, ifname: string): string[] {
    const r = (result ?? {}) as CniResult;
    let cidrs: string[];
    if (Array.isArray(r.ips)) {
        const ifaces = r.interfaces ?? [];
        const mine = r.ips.filter((ip) => ip.interface !== undefined && ifaces[ip.interface]?.name === ifname);
        cidrs = (mine.length > 0 ? mine : r.ips).map((ip) => ip.address ?? "");
    } else {
        cidrs = [r.ip4?.ip ?? "", r.ip6?.ip ?? ""];
    }
    const ips = cidrs.filter(Boolean).map((c) => c.split("/")[0]);
    return [...ips.filter((ip) => !ip.includes(":")), ...ips.filter((ip) => ip.includes(":"))];
}

/** A plugin's error (CNI spec: {code, msg, details} on stdout) as one line. */
export function pluginError(type: string, command: string, code: number, stdout: string, stderr: string): string {
    let said = "";
    try {
        const e = JSON.parse(stdout) as { code?: number; msg?: string; details?: string };
        said = [e.msg, e.details].filter(Boolean).join("; ");
    } catch {
        said = stdout.trim();
    }
    if (!said) said = stderr.trim() || `exit ${code}`;
    return `plugin type=${JSON.stringify(type)} failed (${command.toLowerCase()}): ${said}`;
}
