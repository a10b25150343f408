// Where the release's CRDs come from when not from upstream. Every preview and up reads them
// again, so the mirror must hand out the same files each time and no one on the path may change
// them: an https (or local file:///) directory whose path names the release's tag. A plain-http
// mirror, or one that follows a branch (master, main, release-1.3, HEAD), is refused; a lab stack
// (`lab: true`) may use plain http. The URL is never quoted whole: it may hold a token in its path.
import { releaseOf, type OvnkubeVersion } from "../../config/releases";
import { hasCredentials } from "./transports";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

const PATH = "ovnkube.crdMirror";
/** Path segments that name a branch, not a release. */
const MOVING = /^(?:master|main|HEAD|latest|refs|heads|release-\d+\.\d+|branch(?:es)?|tree)$/;

/** Relation: an http(s) crdMirror is https (but in a lab) and pinned to the stack's release by its tag in the path. */
export function crdMirrorProblems(cfg: StackConfigInput, version: OvnkubeVersion, add: Add): void {
    const mirror = cfg.ovnkube?.crdMirror;
    if (mirror === undefined || mirror.startsWith("file://") || hasCredentials(mirror)) return; // credentials: ./transports.ts
    const url = /^(https?):\/\/([^/]+)(\/.*)$/.exec(mirror);
    if (!url) return; // the schema's pattern
    const [, scheme, host, path] = url;
    const tag = releaseOf(version).tag;
    if (scheme === "http" && cfg.lab !== true)
        add(
            PATH,
            `is plain http (host ${host}): anyone on the path could hand every preview other CRDs; serve the mirror over https (or \`lab: true\` for a throw-away lab)`,
        );
    const segments = path.split("/").filter(Boolean);
    const moving = segments.find((s) => MOVING.test(s));
    if (moving)
        add(
            PATH,
            `follows the branch "${moving}", so every preview may apply other CRDs; mirror the files of release ${version} under its tag, ${tag}, and name that directory`,
        );
    else if (!segments.includes(tag)) {
        const other = segments.find((s) => /^v\d+\.\d+\.\d+$/.test(s));
        add(
            PATH,
            other
                ? `names the tag ${other}, but ovnkube.version ${version} is ${tag}; mirror ${tag}'s CRD files and name that directory`
                : `names no release tag in its path (host ${host}), so nothing says which CRDs it serves; keep the files of ${tag} in a directory whose path names ${tag} (…/${tag}/crds/), or use a file:/// copy`,
        );
    }
}
