// npm run docs:pictures: writes the example topology pictures under docs/pictures (pictures/docs.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { DOCS_PICTURES } from "./pictures/docs";
import { ROOT } from "./pictures/examples";

async function main() {
    const dir = path.join(ROOT, "docs", "pictures");
    mkdirSync(dir, { recursive: true });
    for (const [name, draw] of Object.entries(DOCS_PICTURES)) {
        writeFileSync(path.join(dir, name), await draw());
        console.log(`wrote ${path.relative(ROOT, path.join(dir, name))}`);
    }
}

main().catch((e: unknown) => {
    console.error(`docs:pictures: ${(e as Error).message}`);
    process.exitCode = 1;
});
