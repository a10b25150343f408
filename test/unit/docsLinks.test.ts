// Every relative link in the repository's Markdown reaches a file that exists and, when it names a
// heading, a heading of that file (GitHub's anchors, made by github-slugger).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { repoFiles } from "../../tools/repoFiles";

const ROOT = path.resolve(__dirname, "../..");
const LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;
const README_LIMIT = 160;

const markdownFiles = (dir: string) => repoFiles(dir, ".md");

/** Markdown without its fenced code blocks (no headings there). */
const unfenced = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");
/** ... and without inline code, where a bracket is code and not a link. */
const prose = (text: string) => unfenced(text).replace(/`[^`\n]*`/g, "");

test("every relative link in the Markdown reaches its file and heading", async () => {
    const { default: GithubSlugger } = await import("github-slugger");
    const anchors = new Map<string, Set<string>>();
    const anchorsOf = (file: string) => {
        let set = anchors.get(file);
        if (!set) {
            const slugger = new GithubSlugger();
            const headings = unfenced(fs.readFileSync(file, "utf8"))
                .split("\n")
                .filter((l) => /^#{1,6} /.test(l));
            set = new Set(headings.map((h) => slugger.slug(h.replace(/^#+ /, ""))));
            anchors.set(file, set);
        }
        return set;
    };
    const broken: string[] = [];
    let checked = 0;
    for (const file of markdownFiles(ROOT)) {
        for (const m of prose(fs.readFileSync(file, "utf8")).matchAll(LINK)) {
            const link = m[1];
            if (/^[a-z]+:/.test(link)) continue;
            checked++;
            const [target, anchor] = link.split("#");
            const resolved = target === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(target));
            const where = `${path.relative(ROOT, file)}: ${link}`;
            if (!fs.existsSync(resolved)) broken.push(`${where} (no such file)`);
            else if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor))
                broken.push(`${where} (no such heading)`);
        }
    }
    assert.deepEqual(broken, []);
    assert.ok(checked > 50, `only ${checked} links found`);
});

test(`README.md stays a first page of at most ${README_LIMIT} lines; reference lives in docs/`, () => {
    const lines = fs.readFileSync(path.join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length;
    assert.ok(lines <= README_LIMIT, `README.md has ${lines} lines`);
});
