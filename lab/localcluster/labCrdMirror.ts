// A CRD mirror under a lab cluster's state directory, as `ovnkube.crdMirror` serves it, so no
// upstream URL is read during a test: the release's own files from the lab's copy (./labReleases);
// for features that act on other projects' kinds (NetworkAttachmentDefinition, IPAMClaim,
// MultiNetworkPolicy, network-policy-api), the lab's stand-ins (./crdStandIns), or, with
// OVN_K8S_LAB_GIT set, the pinned files read from git copies of those projects. A file is found by
// the name the model gives it (crdUrl).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { featureOf, type FeatureKey } from "@ovn-kubernetes-as-code/cluster/config";
import { releaseOf, type OvnkubeVersion } from "@ovn-kubernetes-as-code/cluster/kube";
import { crdUrl } from "@ovn-kubernetes-as-code/cluster/model";
import { crdStandIn } from "./crdStandIns";
import { labCrdDir } from "./labReleases";
import { stateDir } from "./names";

/** Where `fetch`ed git copies of other projects are, `$OVN_K8S_LAB_GIT/<owner>+<name>/repo`; unset: stand-ins. */
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

/** The pinned file at `url` from its project's git copy under `root`. */
function pinnedFile(root: string, url: string): Buffer {
    const f = gitFileOf(url);
    const git = path.join(root, f.repo.replace("/", "+"), "repo");
    if (!fs.existsSync(git))
        throw new Error(`no git copy of ${f.repo} at ${git} for ${url}: fetch the repository, or unset ${LAB_GIT_ENV}`);
    return execFileSync("git", ["--git-dir", git, "show", `${f.rev}:${f.path}`]);
}

/**
 * Writes `<state dir>/crds/<tag>/` with every CRD file a stack of `version` with `features` applies,
 * and returns it as the `ovnkube.crdMirror` URL (a file:/// directory ending in `/`).
 */
export function writeLabCrdMirror(id: string, version: OvnkubeVersion, features: Readonly<Record<string, unknown>>): string {
    const release = releaseOf(version);
    const dir = path.join(stateDir(id), "crds", release.tag);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const fileOf = (url: string) => path.join(dir, path.basename(crdUrl(url, "/")));
    for (const url of release.crdUrls) fs.copyFileSync(path.join(labCrdDir(version), path.basename(fileOf(url))), fileOf(url));
    const gitRoot = process.env[LAB_GIT_ENV];
    for (const [key, urls] of Object.entries(release.featureCrdUrls)) {
        if (features[key] !== true) continue;
        const names = featureOf(key as FeatureKey).crds ?? [];
        urls.forEach((url, i) => fs.writeFileSync(fileOf(url), gitRoot ? pinnedFile(gitRoot, url) : crdStandIn(names[i])));
    }
    return `${pathToFileURL(dir).href}/`;
}
