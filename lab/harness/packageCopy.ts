// A project whose node_modules holds its own copy of the built package, as `npm install` of a
// release would leave it, and links to everything else; with the program's files copied in, the
// offline engine runs it as it runs this project (OfflineOptions.projectDir). What a new release
// of the package changes is then written into the copy.
import * as fs from "node:fs";
import * as path from "node:path";
import { PACKAGE_NAME } from "@ovn-kubernetes-as-code/cluster";
import { PROJECT_ROOT } from "../projectRoot";

/** The program's own files: what `pulumi up` reads besides node_modules (copied: node resolves a linked program's imports from where the link points). */
const PROGRAM_FILES = ["Pulumi.yaml", "index.ts", "tsconfig.json"];

/** Fills `dir` (the program's files too when `program`) and returns the package copy's directory. */
export function projectWithPackageCopy(dir: string, program = false): string {
    const modules = path.join(dir, "node_modules");
    const [scope, name] = PACKAGE_NAME.split("/");
    fs.mkdirSync(modules, { recursive: true });
    for (const entry of fs.readdirSync(path.join(PROJECT_ROOT, "node_modules")))
        if (entry !== scope) fs.symlinkSync(path.join(PROJECT_ROOT, "node_modules", entry), path.join(modules, entry));
    if (program) for (const file of PROGRAM_FILES) fs.copyFileSync(path.join(PROJECT_ROOT, file), path.join(dir, file));
    const pkg = path.join(modules, scope, name);
    fs.mkdirSync(pkg, { recursive: true });
    fs.copyFileSync(path.join(PROJECT_ROOT, "components", "package.json"), path.join(pkg, "package.json"));
    fs.cpSync(path.join(PROJECT_ROOT, "components", "dist"), path.join(pkg, "dist"), { recursive: true });
    return pkg;
}
