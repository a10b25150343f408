// The pictures under docs/pictures are what `npm run docs:pictures` draws now: a change to the
// pictures or the example stacks without regenerating them fails here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { DOCS_PICTURES } from "../../cli/pictures/docs";
import { ROOT } from "../../cli/pictures/examples";
import { checkSvg } from "../support/svgCheck";

for (const [name, draw] of Object.entries(DOCS_PICTURES)) {
    test(`docs/pictures/${name} is current (npm run docs:pictures) and drawn by rsvg-convert`, async () => {
        const checkedIn = readFileSync(path.join(ROOT, "docs", "pictures", name), "utf8");
        assert.ok(checkedIn === (await draw()), `docs/pictures/${name} is stale: run npm run docs:pictures`);
        checkSvg(checkedIn);
    });
}
