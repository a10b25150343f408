// The lab's CRD mirror for features that apply other projects' CRDs: every file the model names is
// there, read from the git copy of its project at the pinned version, and each is the CRD the
// features table says the feature acts on.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, it } from "node:test";
import { parseAllDocuments } from "yaml";
import { FEATURES } from "../../components/config/features";
import { releaseCrdUrls } from "../../components/config/releases";
import { crdUrl } from "../../components/model/clusterModel";
import { gitFileOf, writeLabCrdMirror } from "../../lab/localcluster/labCrdMirror";
import { stateDir } from "../../lab/localcluster/names";

const ID = "crdmirr";
const EXTERNAL = { multiNetwork: true, persistentIps: true, multiNetworkPolicy: true } as const;

after(() => fs.rmSync(stateDir(ID), { recursive: true, force: true }));

describe("the lab's CRD mirror", () => {
    it("maps a raw.githubusercontent.com URL to repository, revision and path, and refuses any other", () => {
        assert.deepEqual(gitFileOf(releaseCrdUrls("1.3", { multiNetwork: true }).at(-1)!), {
            repo: "k8snetworkplumbingwg/network-attachment-definition-client",
            rev: "v1.7.7",
            path: "artifacts/networks-crd.yaml",
        });
        assert.throws(() => gitFileOf("https://example.com/v1.0.0/crd.yaml"), /no raw\.githubusercontent\.com file/);
    });

    it("holds every CRD the model names, each of the features' other projects the CRD the table lists", () => {
        const mirror = writeLabCrdMirror(ID, "1.3", EXTERNAL);
        const names = new Map<string, string>();
        for (const url of releaseCrdUrls("1.3", EXTERNAL)) {
            const file = fileURLToPath(crdUrl(url, mirror));
            const docs = parseAllDocuments(fs.readFileSync(file, "utf8")).map(
                (d) => d.toJS() as { kind: string; metadata: { name: string } },
            );
            assert.deepEqual(
                docs.map((d) => d.kind),
                ["CustomResourceDefinition"],
                file,
            );
            names.set(path.basename(file), docs[0].metadata.name);
        }
        for (const key of Object.keys(EXTERNAL) as Array<keyof typeof EXTERNAL>) {
            const files = releaseCrdUrls("1.3", { [key]: true }).slice(releaseCrdUrls("1.3", {}).length);
            assert.deepEqual(
                files.map((u) => names.get(path.basename(crdUrl(u, "/")))),
                FEATURES[key].crds,
                key,
            );
        }
    });
});
