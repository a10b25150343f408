// The release's CustomResourceDefinitions as render lists them for a review: each URL an `up`
// applies (KubeModel.crdUrls), where render read it from, and what it read with its sha256. Local
// files (a file: mirror) are read always, http(s) URLs only when asked (`--fetch-crds`), so render
// stays offline by default. A file that cannot be read is named with the reason, never fatal:
// the review says what it could not see.
import { createHash } from "node:crypto";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseCrds, readCrdFile } from "@ovn-kubernetes-as-code/cluster/kube";
import { crdUrl } from "@ovn-kubernetes-as-code/cluster/model";

/** How long one http(s) CRD file may take with `--fetch-crds`. */
const FETCH_TIMEOUT_MS = 30_000;

/** One CRD file: read (its bytes, digest and the CRDs it holds) or not (why). */
export type CrdReview = {
    /** What an `up` applies. */
    url: string;
    /** What render read where it is not `url`: the reviewer's mirror's file of the same name. */
    readFrom?: string;
} & ({ file: string; sha256: string; crds: string[]; content: Buffer } | { notRead: string });

/** A reviewer's local mirror (a directory or a file: URL) as a directory URL ending in `/`, or why it is none. */
export function localMirrorUrl(given: string): string | Error {
    if (/^[a-z][a-z0-9+.-]*:/i.test(given) && !given.startsWith("file:"))
        return new Error(`--crd-mirror takes a local directory or a file: URL, not ${given}`);
    const dir = given.startsWith("file:") ? fileURLToPath(given) : path.resolve(given);
    return `${pathToFileURL(dir).href.replace(/\/$/, "")}/`;
}

const causeOf = (e: Error): string => {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return cause ? `${e.message} (${cause.code ?? cause.message})` : e.message;
};

async function reviewOne(url: string, readFrom: string, fetchRemote: boolean): Promise<CrdReview> {
    const where = readFrom === url ? { url } : { url, readFrom };
    if (!readFrom.startsWith("file:") && !fetchRemote)
        return { ...where, notRead: "not fetched: render reads http(s) URLs only with --fetch-crds" };
    let content: Buffer;
    try {
        content = await readCrdFile(readFrom, AbortSignal.timeout(FETCH_TIMEOUT_MS));
    } catch (e) {
        return { ...where, notRead: causeOf(e as Error) };
    }
    let crds: string[];
    try {
        crds = parseCrds(readFrom, content.toString("utf8")).map((c) => c.metadata.name);
    } catch (e) {
        return { ...where, notRead: `read, but refused: ${(e as Error).message}` };
    }
    const file = readFrom.slice(readFrom.lastIndexOf("/") + 1);
    return { ...where, file, sha256: createHash("sha256").update(content).digest("hex"), crds, content };
}

/** Every URL of `urls`, in order, read from `mirror` (a local directory URL) when given. */
export function reviewCrds(urls: readonly string[], opts: { mirror?: string; fetch: boolean }): Promise<CrdReview[]> {
    return Promise.all(urls.map((url) => reviewOne(url, opts.mirror ? crdUrl(url, opts.mirror) : url, opts.fetch)));
}
