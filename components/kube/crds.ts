// The release's CustomResourceDefinitions, read from their upstream URLs (or an air-gapped
// mirror's files of the same names) when the program runs, as a Pulumi program would with
// @pulumi/kubernetes' ConfigFile. Nothing is copied into this package: the tag pins the content.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
// js-yaml 4 reads CRD files as Go's YAML (kubectl) does. Upstream files are written for that:
// multi-networkpolicy v1.0.1's scheme.yml has double-quoted descriptions whose continuation lines
// are less indented than their key, which yaml 2.9 and js-yaml 5.5 refuse as YAML 1.2 requires.
import { CORE_SCHEMA, loadAll } from "js-yaml";

export interface CrdObject {
    apiVersion: "apiextensions.k8s.io/v1";
    kind: "CustomResourceDefinition";
    metadata: { name: string; [key: string]: unknown };
    spec: Record<string, unknown>;
}

/** The bytes at an http(s) or file URL; `signal` can bound an http(s) read. */
export async function readCrdFile(url: string, signal?: AbortSignal): Promise<Buffer> {
    if (url.startsWith("file:")) return readFile(fileURLToPath(url));
    const response = await fetch(url, { signal });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
    return Buffer.from(await response.arrayBuffer());
}

/** Every CustomResourceDefinition in one file's YAML documents; anything else in it is refused. */
export function parseCrds(url: string, text: string): CrdObject[] {
    let docs: unknown[];
    try {
        docs = loadAll(text, null, { schema: CORE_SCHEMA });
    } catch (e) {
        throw new Error(`${url}: ${(e as Error).message}`);
    }
    return (docs as Array<CrdObject | null | undefined>)
        .filter((o): o is CrdObject => o != null)
        .map((o) => {
            if (o.apiVersion !== "apiextensions.k8s.io/v1" || o.kind !== "CustomResourceDefinition" || typeof o.metadata?.name !== "string")
                throw new Error(
                    `${url}: holds a ${o.kind ?? "document"} where only CustomResourceDefinitions (apiextensions.k8s.io/v1) belong`,
                );
            return o;
        });
}

/** The CRDs of all `urls`, in order; a URL that cannot be read fails naming it. */
export async function loadCrds(urls: readonly string[]): Promise<CrdObject[]> {
    const texts = await Promise.all(
        urls.map((url) =>
            readCrdFile(url).then(
                (bytes) => bytes.toString("utf8"),
                (e: Error) => {
                    throw new Error(
                        `cannot read the CRDs at ${url}: ${e.message}; set ovnkube.crdMirror to a directory holding the release's CRD files where the upstream URLs cannot be reached`,
                    );
                },
            ),
        ),
    );
    return texts.flatMap((text, i) => parseCrds(urls[i], text));
}
