// The repository's import rules: a package is entered only through its package entries, benchmarks
// import nothing from test/, no module imports itself round a circle, and inside a layered
// folder (LAYERS) no import runs upwards.
// `npm run lint:imports` prints what breaks them and exits 1.
//
// Packages are the folders with a package.json of components/, lab/, cli/ and policy/; the repository root
// (index.ts, bench/, tools/, examples/) is one more. test/ holds white-box tests of every package
// and may import their modules directly.
import * as fs from "node:fs";
import * as path from "node:path";
import madge from "madge";
import { repoFiles } from "./repoFiles";

export const REPO = path.resolve(__dirname, "..");
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["'](\.{1,2}\/[^"']*)["']/g;

export interface CrossingImport {
    file: string;
    specifier: string;
    target: string;
}

const tsFiles = (dir: string) => repoFiles(dir, ".ts");

/** Every package root under `root`: a folder with a package.json, nearest first. */
function packageRoots(root: string): string[] {
    const roots = tsFiles(root).map((f) => path.dirname(f));
    const found = new Set<string>();
    for (let dir of roots) {
        for (; dir.startsWith(root); dir = path.dirname(dir)) {
            if (fs.existsSync(path.join(dir, "package.json"))) {
                found.add(dir);
                break;
            }
        }
    }
    return [...found].sort((a, b) => b.length - a.length);
}

const inTest = (root: string, file: string) => path.relative(root, file).split(path.sep)[0] === "test";

/** Relative imports whose target lies in another package than the importing file (test/ excepted). */
export function crossingImports(root = REPO): CrossingImport[] {
    const roots = packageRoots(root);
    const packageOf = (file: string) => roots.find((r) => file === r || file.startsWith(r + path.sep)) ?? root;
    const crossing: CrossingImport[] = [];
    for (const file of tsFiles(root)) {
        if (inTest(root, file)) continue;
        const own = packageOf(file);
        for (const m of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
            const target = path.resolve(path.dirname(file), m[1]);
            if (packageOf(target) !== own)
                crossing.push({ file: path.relative(root, file), specifier: m[1], target: path.relative(root, target) });
        }
    }
    return crossing;
}

/** Folders whose code must not import test/: what they share with the tests lives in a package. */
export const NOT_FROM_TEST = ["bench"];

/** Relative imports of test/ from the folders `dirs`. */
export function testImports(root = REPO, dirs = NOT_FROM_TEST): CrossingImport[] {
    const found: CrossingImport[] = [];
    for (const file of dirs.flatMap((d) => tsFiles(path.join(root, d)))) {
        for (const m of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
            const target = path.resolve(path.dirname(file), m[1]);
            if (inTest(root, target)) found.push({ file: path.relative(root, file), specifier: m[1], target: path.relative(root, target) });
        }
    }
    return found;
}

/** Import circles among the TypeScript modules under `dirs` (type-only imports count too). */
export async function importCycles(dirs: string[], root = REPO): Promise<string[][]> {
    const result = await madge(
        dirs.map((d) => path.join(root, d)),
        {
            baseDir: root,
            fileExtensions: ["ts"],
            excludeRegExp: [/node_modules/, /\/dist\//, /\.d\.ts$/],
            tsConfig: path.join(root, "tsconfig.json"),
        },
    );
    return result.circular();
}

/**
 * Folders split into layers, lowest first: a module imports only from its own layer and lower ones.
 * Modules directly in the folder (its index) sit above every layer.
 */
export const LAYERS: Record<string, readonly string[]> = {
    // The product, from plain values and settings, the model built from them, the provider stubs and
    // the transports (OVSDB, SSH), the Kubernetes objects, validation (which checks names against
    // them), the NB rows, the checks and host components, up to the topology writers, the program's
    // steps and what reads a cluster back; cluster.ts, stack.ts and the entries sit on top.
    components: [
        "values",
        "config",
        "model",
        "dynamic",
        "ovsdb",
        "ssh",
        "kube",
        "plan",
        "nb",
        "compat",
        "hosts",
        "guard",
        "network",
        "topology",
        "program",
        "render",
        "status",
        "exports",
    ],
    "components/nb": ["core", "kinds", "transact", "resources", "expectation"],
};

export interface LayerBreak {
    file: string;
    specifier: string;
    /** Why: the importing and the imported layer, or the folder that is in no layer. */
    reason: string;
}

/** Imports that run from a lower layer to a higher one, and modules in a subfolder that is in no layer. */
export function layerBreaks(root = REPO, layers = LAYERS): LayerBreak[] {
    const breaks: LayerBreak[] = [];
    for (const [dir, order] of Object.entries(layers)) {
        const base = path.join(root, dir);
        const layerOf = (file: string): string => {
            const parts = path.relative(base, file).split(path.sep);
            return parts.length === 1 ? "" : parts[0];
        };
        const rank = (layer: string) => (layer === "" ? order.length : order.indexOf(layer));
        for (const file of tsFiles(base)) {
            const own = layerOf(file);
            const at = path.relative(root, file);
            if (rank(own) < 0) {
                breaks.push({ file: at, specifier: "", reason: `${dir}/${own} is in none of the layers ${order.join(" < ")}` });
                continue;
            }
            for (const m of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
                const resolved = path.resolve(path.dirname(file), m[1]);
                const target = fs.existsSync(path.join(resolved, "index.ts")) ? path.join(resolved, "index.ts") : resolved;
                if (!target.startsWith(base + path.sep)) continue;
                const theirs = layerOf(target);
                if (rank(theirs) > rank(own))
                    breaks.push({
                        file: at,
                        specifier: m[1],
                        reason: `${own || "(top)"} imports ${theirs || "(top)"}, which lies above it (${order.join(" < ")})`,
                    });
            }
        }
    }
    return breaks;
}

/** What `npm run lint:imports` checks: every package and the root's own code. */
export const CHECKED_DIRS = ["components", "lab", "cli", "policy", "bench", "tools", "index.ts"];

async function main(): Promise<void> {
    const crossing = crossingImports();
    for (const c of crossing) console.log(`${c.file}: "${c.specifier}" reaches into ${c.target}; import it through its package's entry`);
    const fromTest = testImports();
    for (const t of fromTest) console.log(`${t.file}: "${t.specifier}" imports ${t.target}; benchmarks import nothing from test/`);
    const cycles = await importCycles(CHECKED_DIRS);
    for (const c of cycles) console.log(`import circle: ${[...c, c[0]].join(" > ")}`);
    const breaks = layerBreaks();
    for (const b of breaks) console.log(`${b.file}: "${b.specifier}": ${b.reason}`);
    console.log(
        `${crossing.length} relative imports cross a package, ${fromTest.length} import test/ from bench/, ${cycles.length} import circles, ${breaks.length} imports against a layer order`,
    );
    process.exitCode = crossing.length + fromTest.length + cycles.length + breaks.length === 0 ? 0 : 1;
}

if (require.main === module) void main();
