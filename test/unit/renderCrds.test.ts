// render lists the release's CRDs an `up` applies and writes each one it can read: from a local
// mirror (the lab's real v1.3.0 files, copied by the test), from http(s) only with --fetch-crds
// (a loopback server here: no test reaches the network). What cannot be read is named, never fatal.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { test } from "node:test";
import { parse } from "yaml";
import { releaseOf } from "../../components/config/releases";
import { labCrdDir } from "../../lab/localcluster/labReleases";
import { ROOT } from "../../lab/harness/configs";

const run = promisify(execFile);
const STAGING = path.join(ROOT, "stacks/Pulumi.staging.yaml");
const RELEASE = releaseOf("1.3");
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const baseName = (url: string) => url.slice(url.lastIndexOf("/") + 1);

/** render's exit code, its --json document and crds.json (async: a test's own server must keep answering meanwhile). */
async function render(file: string, out: string, ...options: string[]) {
    const r = await run(process.execPath, ["--import", "tsx", "cli/render.ts", file, "--out", out, "--json", ...options], {
        cwd: ROOT,
        encoding: "utf8",
    }).then(
        (ok) => ({ code: 0, ...ok }),
        (e: { code: number; stdout: string; stderr: string }) => e,
    );
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    const crds = JSON.parse(readFileSync(path.join(out, "crds.json"), "utf8"));
    assert.deepEqual(json.crds, crds);
    return crds as Array<{ url: string; readFrom?: string; file?: string; sha256?: string; crds?: string[]; notRead?: string }>;
}

/** A directory holding the lab's v1.3.0 CRD files, less `without`. */
function labMirror(...without: string[]): string {
    const dir = mkdtempSync(path.join(tmpdir(), "crd-mirror-"));
    for (const name of readdirSync(labCrdDir("1.3")))
        if (!without.includes(name)) copyFileSync(path.join(labCrdDir("1.3"), name), path.join(dir, name));
    return dir;
}

/** Each read entry's file is the mirror's, byte for byte, its digest that of the file, its CRDs those the file defines. */
function assertWritten(out: string, mirror: string, entry: { url: string; file?: string; sha256?: string; crds?: string[] }) {
    const name = baseName(entry.url);
    assert.equal(entry.file, path.join("crds", name), entry.url);
    const written = readFileSync(path.join(out, entry.file!));
    assert.deepEqual(written, readFileSync(path.join(mirror, name)));
    assert.equal(entry.sha256, sha256(written));
    assert.deepEqual(entry.crds, [parse(written.toString("utf8")).metadata.name]);
}

test("render: staging stack names every CRD of the release by its upstream URL at the tag, reading none offline", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "render-"));
    const crds = await render(STAGING, out);
    assert.deepEqual(
        crds.map((c) => c.url),
        RELEASE.crdUrls,
    );
    assert.equal(crds.length, 11);
    for (const c of crds) {
        assert.match(
            c.url,
            /^https:\/\/raw\.githubusercontent\.com\/ovn-kubernetes\/ovn-kubernetes\/v1\.3\.0\/helm\/ovn-kubernetes\/crds\/k8s\.ovn\.org_[a-z]+\.yaml$/,
        );
        assert.match(c.notRead!, /--fetch-crds/);
        assert.equal(c.sha256, undefined);
    }
    assert.equal(existsSync(path.join(out, "crds")), false);
});

test("render --crd-mirror: the lab's v1.3.0 CRDs copied to a local directory → every file written with its digest; a file the mirror lacks is named not read", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "render-"));
    const mirror = labMirror();
    const crds = await render(STAGING, out, "--crd-mirror", mirror);
    assert.equal(crds.length, RELEASE.crdUrls.length);
    for (const c of crds) {
        assert.equal(c.readFrom, pathToFileURL(path.join(mirror, baseName(c.url))).href);
        assertWritten(out, mirror, c);
    }
    // The same as a file: URL, one file missing: the rest written, that one named, nothing stale left.
    const lacking = labMirror("k8s.ovn.org_vteps.yaml");
    const again = await render(STAGING, out, "--crd-mirror", pathToFileURL(lacking).href);
    for (const c of again.filter((c) => !c.url.endsWith("_vteps.yaml"))) assertWritten(out, lacking, c);
    const vteps = again.find((c) => c.url.endsWith("_vteps.yaml"))!;
    assert.match(vteps.notRead!, /ENOENT/);
    assert.equal(existsSync(path.join(out, "crds", "k8s.ovn.org_vteps.yaml")), false);
});

test("render --fetch-crds: a stack's http mirror is read; a file it lacks and an unreachable server are named not read, and render succeeds", async () => {
    const mirror = labMirror("k8s.ovn.org_egressips.yaml");
    const server: Server = createServer((req, res) => {
        const file = path.join(mirror, path.basename(req.url ?? ""));
        if (!req.url?.startsWith(`/${RELEASE.tag}/crds/`) || !existsSync(file)) return res.writeHead(404).end();
        res.writeHead(200).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const dir = mkdtempSync(path.join(tmpdir(), "render-stack-"));
    const stack = path.join(dir, "Pulumi.staging.yaml");
    const text = readFileSync(STAGING, "utf8");
    assert.ok(text.includes("    architecture: interconnect\n"));
    // A plain-http mirror is a lab's only (plan/checks/crdMirror.ts); its path names the release's tag.
    const labText =
        text.replace(
            "    architecture: interconnect\n",
            `    architecture: interconnect\n    crdMirror: http://127.0.0.1:${port}/${RELEASE.tag}/crds/\n`,
        ) + "  ovn-kubernetes:lab: true\n";
    writeFileSync(stack, labText);
    const out = mkdtempSync(path.join(tmpdir(), "render-"));
    try {
        const offline = await render(stack, out);
        for (const c of offline) assert.match(c.notRead!, /--fetch-crds/);
        const fetched = await render(stack, out, "--fetch-crds");
        assert.deepEqual(
            fetched.map((c) => c.url),
            RELEASE.crdUrls.map((u) => `http://127.0.0.1:${port}/${RELEASE.tag}/crds/${baseName(u)}`),
        );
        for (const c of fetched.filter((c) => !c.url.endsWith("_egressips.yaml"))) assertWritten(out, mirror, c);
        assert.match(fetched.find((c) => c.url.endsWith("_egressips.yaml"))!.notRead!, /404/);
    } finally {
        await new Promise((resolve) => server.close(resolve));
    }
    const unreachable = await render(stack, out, "--fetch-crds");
    for (const c of unreachable) assert.match(c.notRead!, /ECONNREFUSED/, c.url);
    assert.equal(existsSync(path.join(out, "crds")), false);
});
