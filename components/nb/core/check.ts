// `check` of the NB resources: normalizes the inputs and lists every failure with the property
// path it concerns (e.g. `network.router.cidr`), all at once. Values the engine does not know
// yet (preview) are left unchecked. A failure reason may quote the bad value, except for the
// private key, which is never quoted.
import { containsIp, parseNetwork, PATTERNS, type PatternName } from "../../values";
import { checkPin } from "../../ssh/hostKey";

/** The engine's placeholder for a value not known until apply (sdk/nodejs/runtime/rpc.ts unknownValue). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface Failure {
    property: string;
    reason: string;
}

/**
 * Each path's parts, split once: every resource checked reads the same few paths. A plain object,
 * not a Map: state written before the provider stubs runs a serialized copy of this code.
 */
const pathParts: Record<string, readonly string[]> = {};

function partsOf(path: string): readonly string[] {
    if (!Object.prototype.hasOwnProperty.call(pathParts, path))
        pathParts[path] = (path.includes("[") ? path.replace(/\[(\d+)\]/g, ".$1") : path).split(".");
    return pathParts[path];
}

export function valueAt(obj: unknown, path: string): unknown {
    let v = obj;
    for (const part of partsOf(path)) {
        if (v === UNKNOWN) return UNKNOWN;
        v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[part] : undefined;
    }
    return v;
}

export const isUnknown = (v: unknown) => v === UNKNOWN;

/** Collects failures for one set of inputs; each method checks one property path. */
export interface Checker {
    failures: Failure[];
    /** The value at path if present and known, after reporting a missing one. */
    present(path: string): unknown;
    text(path: string, rule: PatternName): string | undefined;
    network(path: string): string | undefined;
    unicastMac(path: string): string | undefined;
    /** An address with prefix whose address part equals the `ip` next to it, e.g. router.{ip,cidr}. */
    address(path: string, opts?: { mac?: boolean; within?: string }): void;
    fail(path: string, reason: string): void;
}

export function checker(inputs: unknown): Checker {
    const failures: Failure[] = [];
    // One failure per property, and none for the fields of an object already reported missing.
    const fail = (property: string, reason: string) => {
        if (!failures.some((f) => property === f.property || property.startsWith(`${f.property}.`))) failures.push({ property, reason });
    };
    const present = (path: string) => {
        const v = valueAt(inputs, path);
        if (v === undefined || v === null) fail(path, "is required");
        return v === UNKNOWN ? undefined : v;
    };
    const text = (path: string, name: PatternName) => {
        const v = present(path);
        if (v === undefined || v === null) return undefined;
        const { what, re } = PATTERNS[name];
        if (typeof v !== "string" || !re.test(v)) {
            fail(path, `must be ${what}, got ${JSON.stringify(v)}`);
            return undefined;
        }
        return v;
    };
    const network = (path: string) => {
        const v = text(path, "cidr");
        if (v === undefined) return undefined;
        try {
            parseNetwork(v);
            return v;
        } catch (err) {
            fail(path, `must be a network CIDR: ${(err as Error).message}`);
            return undefined;
        }
    };
    const unicastMac = (path: string) => {
        const v = text(path, "mac");
        if (v !== undefined && parseInt(v.slice(0, 2), 16) % 2 === 1)
            fail(path, `must be a unicast MAC (first octet even), got ${JSON.stringify(v)}`);
        return v;
    };
    const address = (path: string, opts: { mac?: boolean; within?: string } = {}) => {
        const ip = text(`${path}.ip`, "ipv4");
        const cidr = text(`${path}.cidr`, "cidr");
        if (opts.mac !== false) unicastMac(`${path}.mac`);
        if (ip !== undefined && cidr !== undefined && cidr.split("/")[0] !== ip)
            fail(`${path}.cidr`, `must be ${path}.ip (${ip}) with a prefix length, got ${JSON.stringify(cidr)}`);
        if (ip !== undefined && opts.within !== undefined && !containsIp(parseNetwork(opts.within), ip))
            fail(`${path}.ip`, `must lie in ${opts.within}, got ${ip}`);
    };
    return { failures, present, text, network, unicastMac, address, fail };
}

/** Where one NB server is reached: `<path>.ssh` (host, user, port, pinned key) and `<path>.socket`. */
function checkEndpoint(c: Checker, inputs: Record<string, any>, path: string): void {
    c.text(`${path}.ssh.host`, "host");
    c.text(`${path}.ssh.user`, "sshUser");
    const port = c.present(`${path}.ssh.port`);
    if (port !== undefined && port !== null && (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535)) {
        c.fail(`${path}.ssh.port`, `must be an integer from 1 to 65535, got ${JSON.stringify(port)}`);
    }
    const insecure = valueAt(inputs, `${path}.ssh.insecureIgnoreHostKey`);
    if (insecure !== undefined && insecure !== UNKNOWN && typeof insecure !== "boolean")
        c.fail(`${path}.ssh.insecureIgnoreHostKey`, "must be true or false");
    const hostKey = valueAt(inputs, `${path}.ssh.hostKey`);
    if (hostKey === undefined || hostKey === "") {
        if (insecure !== true)
            c.fail(`${path}.ssh.hostKey`, "is required: pin the NB host's SSH key, or set insecureIgnoreHostKey for a throw-away lab");
    } else if (hostKey !== UNKNOWN) {
        try {
            if (typeof hostKey !== "string") throw new Error("must be a string");
            checkPin(hostKey);
        } catch (err) {
            c.fail(`${path}.ssh.hostKey`, (err as Error).message);
        }
    }
    if (valueAt(inputs, `${path}.socket`) !== undefined) {
        const socket = c.text(`${path}.socket`, "socket");
        if (socket !== undefined && socket.split("/").includes("..")) c.fail(`${path}.socket`, 'must not contain ".."');
        if (socket !== undefined && socket.startsWith("tcp:") && Number(socket.split(":")[2]) > 65535)
            c.fail(`${path}.socket`, "port must be at most 65535");
    }
}

/** The connection, owner and version inputs every NB resource has. */
export function checkCommon(c: Checker, inputs: Record<string, any>, versions: readonly string[]): void {
    c.text("owner", "owner");
    checkEndpoint(c, inputs, "nb");
    const [key, from] = [valueAt(inputs, "nb.privateKey"), valueAt(inputs, "nb.privateKeyConfig")];
    if ((key === undefined) === (from === undefined) && valueAt(inputs, "nb") !== undefined && valueAt(inputs, "nb") !== UNKNOWN) {
        c.fail(
            "nb.privateKeyConfig",
            "exactly one of privateKeyConfig (the stack config key the provider reads the SSH key from) and privateKey must be given",
        );
    }
    if (key !== undefined && key !== UNKNOWN && (typeof key !== "string" || !/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(key))) {
        c.fail("nb.privateKey", "must be a PEM/OpenSSH private key (-----BEGIN … PRIVATE KEY-----); its value is not shown");
    }
    if (from !== undefined && from !== UNKNOWN && (typeof from !== "string" || !/^[^:\s]+:[^:\s]+$/.test(from))) {
        c.fail(
            "nb.privateKeyConfig",
            `must be a full stack config key, <namespace>:<name> (e.g. ovn-kubernetes:sshPrivateKey), got ${JSON.stringify(from)}`,
        );
    }
    const wait = valueAt(inputs, "nb.chassisWaitSeconds");
    if (wait !== undefined && wait !== UNKNOWN && (typeof wait !== "number" || !Number.isInteger(wait) || wait < 0 || wait > 3600))
        c.fail("nb.chassisWaitSeconds", `must be an integer from 0 (no wait) to 3600, got ${JSON.stringify(wait)}`);
    const members = valueAt(inputs, "nb.members");
    if (members !== undefined && members !== UNKNOWN) {
        if (!Array.isArray(members) || members.length < 2)
            c.fail("nb.members", "must list every member of the clustered NB (at least 2), or be absent");
        else members.forEach((_, i) => checkEndpoint(c, inputs, `nb.members[${i}]`));
    }
    const version = valueAt(inputs, "version");
    if (version !== undefined && version !== UNKNOWN && !versions.includes(version as string)) {
        c.fail("version", `must be one of ${versions.join(", ")} (the NB schema versions this code knows), got ${JSON.stringify(version)}`);
    }
}
