// The lab's CRD mirror for features that apply other projects' CRDs: every file the model names is
// there, under the name the model gives it, and each is the CRD the features table says the feature
// acts on (the stand-ins here; test/kube/udn.test.ts serves them from a real API server).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { after, describe, it } from "node:test";
import { FEATURES } from "../../components/config/features";
import { releaseCrdUrls } from "../../components/config/releases";
import { loadCrds } from "../../components/kube/crds";
import { crdUrl } from "../../components/model/clusterModel";
import { gitFileOf, writeLabCrdMirror } from "../../lab/localcluster/labCrdMirror";
import { stateDir } from "../../lab/localcluster/names";

const ID = "crdmir";
const EXTERNAL = { adminNetworkPolicy: true, multiNetwork: true, persistentIps: true, multiNetworkPolicy: true } as const;

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

    it("holds every CRD the model names, as the program reads it, each of the other projects' the CRD the features table lists", async () => {
        const mirror = writeLabCrdMirror(ID, "1.3", EXTERNAL);
        const own = new Set(releaseCrdUrls("1.3", {}));
        const names = new Map<string, string>();
        for (const url of releaseCrdUrls("1.3", EXTERNAL)) {
            const crds = await loadCrds([crdUrl(url, mirror)]);
            assert.equal(crds.length, 1, url);
            names.set(url, crds[0].metadata.name);
            const versions = crds[0].spec.versions as Array<{ storage: boolean }>;
            if (!own.has(url)) assert.equal(versions.filter((v) => v.storage).length, 1, url);
        }
        for (const key of Object.keys(EXTERNAL) as Array<keyof typeof EXTERNAL>) {
            const urls = releaseCrdUrls("1.3", { [key]: true }).filter((u) => !own.has(u));
            assert.deepEqual(
                urls.map((u) => names.get(u)),
                FEATURES[key].crds,
                key,
            );
        }
    });
});
