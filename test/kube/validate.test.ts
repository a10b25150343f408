// A model ovnkube could not run with is refused before any object exists, naming the field.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kubeManifests } from "../../components/kube/manifests";
import { kubeModel } from "./fixture";

const withConfig = (config: Record<string, string>) => kubeModel({ config: { ...kubeModel().config, ...config } });

describe("validateKubeModel", () => {
    it("accepts the fixture", () => {
        assert.doesNotThrow(() => kubeManifests(kubeModel()));
    });

    const cases: Array<[string, ReturnType<typeof kubeModel>, RegExp]> = [
        ["a namespace that is no DNS label", kubeModel({ namespace: "OVN_kube" }), /^kube\.namespace: /],
        ["an image with spaces", kubeModel({ image: "ovn-kube latest" }), /^kube\.image: /],
        ["no master", kubeModel({ masterNodes: [] }), /^kube\.masterNodes: is empty/],
        ["a master name that is no node name", kubeModel({ masterNodes: ["Master 0"] }), /^kube\.masterNodes: /],
        ["a token in ovn-config", withConfig({ k8s_token: "abc" }), /^kube\.config\.k8s_token: looks like a credential/],
        ["a CA in ovn-config", withConfig({ k8s_cacert: "-----BEGIN" }), /^kube\.config\.k8s_cacert: looks like a credential/],
        ["a missing OvnNorth", kubeModel({ config: { ...kubeModel().config, OvnNorth: "" } }), /^kube\.config\.OvnNorth: is required/],
        ["an http API marked secure", withConfig({ k8s_apiserver: "http://10.0.0.1:8080" }), /^kube\.config\.k8s_apiserver: .*secureApi=true/],
        ["an https API marked insecure", kubeModel({ secureApi: false }), /^kube\.config\.k8s_apiserver: .*secureApi=false/],
    ];
    for (const [what, model, message] of cases) {
        it(`refuses ${what}`, () => {
            assert.throws(() => kubeManifests(model), { message });
        });
    }
});
