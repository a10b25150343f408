// What `ovnkube.image` may be: a reference in the grammar every registry client reads
// (github.com/distribution/reference, reference.go), naming its registry, and pinned to what the
// stack's release runs. A short name (`ovn-kube:v1.3.0`) resolves to a registry the stack does
// not name (docker.io for containerd, registries.conf's search list for CRI-O); a moving tag
// (`latest`, `master`) pulls whatever was pushed last, on each node at its own time.
import { hasCredentials } from "./transports";
import type { OvnkubeVersion } from "../../config/releases";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

const PATH = "ovnkube.image";
const ALLOW = "ovnkube.allowMovingImageTag";

/** distribution/reference: domain-component, path-component (lower-case, separators `.` `_` `__` `-…`), tag, digest. */
const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const DOMAIN = new RegExp(`^${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?$`);
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** reference.go NameTotalLengthMax. */
const NAME_MAX = 255;

/** Tags that follow a branch or "the newest", never one release. */
export const MOVING_TAGS: readonly string[] = ["latest", "master", "main", "nightly", "edge", "dev"];

export interface ImageReference {
    registry: string;
    repository: string;
    tag?: string;
    digest?: string;
}

/** Parses a reference that names its registry; returns what is wrong with it otherwise. */
export function parseImageReference(ref: string): ImageReference | string {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(ref);
    if (scheme) return `is a URL; an image reference has no scheme: drop "${scheme[0]}" (write ${ref.slice(scheme[0].length)})`;
    const at = ref.indexOf("@");
    const digest = at >= 0 ? ref.slice(at + 1) : undefined;
    const named = at >= 0 ? ref.slice(0, at) : ref;
    if (digest !== undefined && !DIGEST.test(digest)) return `has the digest "${digest}"; a digest is sha256: and 64 lower-case hex digits`;
    const slash = named.indexOf("/");
    const colon = named.lastIndexOf(":");
    const tag = colon > named.lastIndexOf("/") ? named.slice(colon + 1) : undefined;
    const name = tag === undefined ? named : named.slice(0, colon);
    if (tag !== undefined && !TAG.test(tag)) return `has the tag "${tag}"; a tag is 1-128 of A-Z a-z 0-9 _ . -, not starting with . or -`;
    const first = slash >= 0 ? name.slice(0, slash) : "";
    // reference's splitDockerDomain: the first component is a registry when it has a dot or a port, or is localhost.
    if (slash < 0 || !(first.includes(".") || first.includes(":") || first === "localhost"))
        return `names no registry, so each node's runtime picks one (docker.io, or registries.conf's search list); name the registry: ghcr.io/${name}${tag ? `:${tag}` : ""}`;
    if (!DOMAIN.test(first))
        return `has the registry "${first}"; a registry is a DNS name or IPv4 address with an optional numeric port (registry.example.com:5000)`;
    const repository = name.slice(slash + 1);
    const bad = repository.split("/").find((c) => !PATH_COMPONENT.test(c));
    if (bad !== undefined) return `has the path component "${bad}"; path components are lower-case a-z 0-9, joined by . _ __ or -`;
    if (name.length > NAME_MAX) return `has a name of ${name.length} characters; at most ${NAME_MAX}`;
    return { registry: first, repository, tag, digest };
}

/** `release-1.2` is the image upstream's CI pushes from the release-1.2 branch (../../config/releases). */
const releaseLineOf = (tag: string): string | undefined => /^release-(\d+\.\d+)$/.exec(tag)?.[1];

/**
 * Relations: `ovnkube.image` is a reference naming its registry; a digest, or a tag of the stack's
 * release; a moving tag only with `ovnkube.allowMovingImageTag: true`.
 */
export function imageReferenceProblems(cfg: StackConfigInput, version: OvnkubeVersion, add: Add): void {
    const image = cfg.ovnkube?.image;
    if (image === undefined || hasCredentials(image)) return; // credentials: ./transports.ts, without quoting them
    const ref = parseImageReference(image);
    if (typeof ref === "string") return add(PATH, `"${image}" ${ref}`);
    if (ref.digest || !ref.tag) return;
    if (MOVING_TAGS.includes(ref.tag.toLowerCase()) && cfg.ovnkube?.allowMovingImageTag !== true)
        add(
            PATH,
            `"${image}" has the moving tag "${ref.tag}", which follows a branch instead of release ${version}: every node pulls whatever was pushed last; give the release's tag or a digest (@sha256:…), or set ${ALLOW}: true to run it on purpose`,
        );
    const line = releaseLineOf(ref.tag);
    if (line !== undefined && line !== version)
        add(
            PATH,
            `"${image}" is the image of release ${line}, but ovnkube.version is ${version}; use the image of release ${version}, or set ovnkube.version: "${line}"`,
        );
}
