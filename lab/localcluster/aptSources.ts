// Which Debian mirror the lab's bases come from: the machine's own apt sources (so a proxy or a
// local mirror that apt already uses serves the lab too), or the OVN_K8S_LAB_MIRROR override.
// Pure: the caller reads the files.

/** Set to a Debian mirror's URL to use it instead of the machine's apt sources. */
export const MIRROR_ENV = "OVN_K8S_LAB_MIRROR";

export interface AptSourceFile {
    path: string;
    text: string;
}

export interface AptSource {
    types: string[];
    uris: string[];
    suites: string[];
    components: string[];
    /** Where it was read, for messages. */
    file: string;
}

/** Debian's release names and codenames: a source with one of these is Debian's archive, not a third party's. */
const DEBIAN_SUITES = new Set([
    "oldoldstable",
    "oldstable",
    "stable",
    "testing",
    "unstable",
    "sid",
    "buster",
    "bullseye",
    "bookworm",
    "trixie",
    "forky",
    "duke",
]);

/** What debootstrap can fetch from: http, https, or a directory. */
const MIRROR_URL = /^(https?:\/\/[^\s/]+|file:\/)\S*$/;

const words = (s: string) => s.trim().split(/\s+/).filter(Boolean);

/** One-line format (sources.list(5)): `deb [option=value ...] uri suite [component ...]`. */
export function parseOneLineSources(file: AptSourceFile): AptSource[] {
    return file.text.split("\n").flatMap((raw) => {
        const line = raw.replace(/#.*/, "").replace(/\[[^\]]*\]/, " ");
        const [type, uri, suite, ...components] = words(line);
        return type && uri && suite ? [{ types: [type], uris: [uri], suites: [suite], components, file: file.path }] : [];
    });
}

/** deb822 format (sources.list(5)): stanzas of `Field: value` separated by blank lines; `Enabled: no` skips one. */
export function parseDeb822Sources(file: AptSourceFile): AptSource[] {
    const stanzas = file.text.split(/\n[ \t]*\n/);
    return stanzas.flatMap((stanza) => {
        const fields = new Map<string, string>();
        let last = "";
        for (const line of stanza.split("\n")) {
            if (/^\s*#/.test(line) || !line.trim()) continue;
            // A continuation line (leading space) belongs to the field above it, e.g. a Signed-By key.
            if (/^\s/.test(line) && last) fields.set(last, `${fields.get(last)} ${line.trim()}`);
            else {
                const m = /^([A-Za-z0-9-]+):(.*)$/.exec(line);
                if (m) fields.set((last = m[1].toLowerCase()), m[2].trim());
            }
        }
        if (!fields.has("uris") || (fields.get("enabled") ?? "yes").toLowerCase() === "no") return [];
        const list = (k: string) => words(fields.get(k) ?? "");
        return [{ types: list("types"), uris: list("uris"), suites: list("suites"), components: list("components"), file: file.path }];
    });
}

/** Parses a file by its name: `*.sources` are deb822, everything else one-line. */
export function parseSourceFile(file: AptSourceFile): AptSource[] {
    return file.path.endsWith(".sources") ? parseDeb822Sources(file) : parseOneLineSources(file);
}

/** The first binary source of Debian's main archive whose URI debootstrap can use. */
export function debianMirrorOf(sources: readonly AptSource[]): string | undefined {
    for (const s of sources) {
        if (!s.types.includes("deb") || !s.components.includes("main") || !s.suites.some((suite) => DEBIAN_SUITES.has(suite))) continue;
        const uri = s.uris.find((u) => MIRROR_URL.test(u));
        if (uri) return uri.replace(/\/+$/, "");
    }
    return undefined;
}

/**
 * The mirror to bootstrap from: the override when set (checked), else the machine's Debian archive.
 * Throws naming the variable to set when neither gives one.
 */
export function chooseDebianMirror(override: string | undefined, files: readonly AptSourceFile[]): string {
    if (override !== undefined && override !== "") {
        if (!MIRROR_URL.test(override))
            throw new Error(
                `${MIRROR_ENV}=${JSON.stringify(override)} is not a mirror URL: give http://, https:// or file:/ followed by the Debian archive's path`,
            );
        return override.replace(/\/+$/, "");
    }
    const mirror = debianMirrorOf(files.flatMap(parseSourceFile));
    if (mirror) return mirror;
    const read = files.length > 0 ? files.map((f) => f.path).join(", ") : "no apt source file";
    throw new Error(
        `no Debian archive (a "deb" source of a Debian suite with component main, at an http, https or file: URI) in this machine's apt sources (${read}): ` +
            `set ${MIRROR_ENV} to a Debian mirror's URL, e.g. ${MIRROR_ENV}=http://<your mirror>/debian`,
    );
}
