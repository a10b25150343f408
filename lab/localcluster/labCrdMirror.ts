// A CRD mirror under a lab cluster's state directory, for stacks whose features apply CRDs of other
// projects (NetworkAttachmentDefinition, IPAMClaim, MultiNetworkPolicy, network-policy-api): the
// release's files from the lab's copy (./labReleases), each other project's file read from a git
// copy of its repository at the pinned version (kept next to the project, `fetch`ed beforehand), so
// no upstream URL is read during a test. A file is found by the name the model gives it (crdUrl).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { releaseCrdUrls, releaseOf, type OvnkubeVersion } from "@ovn-kubernetes-as-code/cluster/kube";
import { crdUrl } from "@ovn-kubernetes-as-code/cluster/model";
import { labCrdDir } from "./labReleases";
import { PROJECT_ROOT, stateDir } from "./names";

/** Overrides where the git copies of other projects live: `$OVN_K8S_LAB_GIT/<owner>+<name>/repo`. */
export const LAB_GIT_ENV = "OVN_K8S_LAB_GIT";

/** Where a file of another project is read from: its repository, the git revision and the path. */
interface GitFile {
    repo: string;
    rev: string;
    path: string;
}

const RAW = /^https:\/\/raw\.githubusercontent\.com\/([^/]+\/[^/]+)\/(?:refs\/tags\/)?([^/]+)\/(.+)$/;

/**
 * Revisions the git copies hold under another name: the copy of multi-networkpolicy has no tag
 * v1.0.1; its master at this commit (2023-03-02) has the scheme.yml unchanged since 2022-04-19.
 */
const REV_IN_COPY: Readonly<Record<string, string>> = {
    "k8snetworkplumbingwg/multi-networkpolicy@v1.0.1": "f1873dc329c687c4a2cd236b55284a380b77c6b8",
};

/** The repository, revision and path a raw.githubusercontent.com URL names. Pure. */
export function gitFileOf(url: string): GitFile {
    const m = RAW.exec(url);
    if (!m) throw new Error(`${url} is no raw.githubusercontent.com file: the lab cannot map it to a git copy`);
    const [, repo, rev, file] = m;
    return { repo, rev: REV_IN_COPY[`${repo}@${rev}`] ?? rev, path: file };
}

function gitDir(repo: string): string {
    const root = process.env[LAB_GIT_ENV] ?? path.join(PROJECT_ROOT, "..", ".mirror");
    return path.join(root, repo.replace("/", "+"), "repo");
}

/**
 * Writes `<state dir>/crds/<tag>/` with every CRD file a stack of `version` with `features` applies,
 * and returns it as the `ovnkube.crdMirror` URL (a file:/// directory ending in `/`).
 */
export function writeLabCrdMirror(id: string, version: OvnkubeVersion, features: Readonly<Record<string, boolean | undefined>>): string {
    const dir = path.join(stateDir(id), "crds", releaseOf(version).tag);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const own = new Set(releaseOf(version).crdUrls);
    for (const url of releaseCrdUrls(version, features)) {
        const name = path.basename(crdUrl(url, "/"));
        if (own.has(url)) {
            fs.copyFileSync(path.join(labCrdDir(version), name), path.join(dir, name));
            continue;
        }
        const f = gitFileOf(url);
        const git = gitDir(f.repo);
        if (!fs.existsSync(git))
            throw new Error(`no git copy of ${f.repo} at ${git} for ${url}: fetch the repository, or set ${LAB_GIT_ENV}`);
        fs.writeFileSync(path.join(dir, name), execFileSync("git", ["--git-dir", git, "show", `${f.rev}:${f.path}`]));
    }
    return `${pathToFileURL(dir).href}/`;
}
