// The same-cluster judgement (components/kube/clusterIdentity.ts) apart from its reads, which
// test/kube/clusterIdentity.test.ts makes against two real control planes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { clusterIdentityRefusal, sameEndpoint } from "../../components/kube/clusterIdentity";

test("one endpoint however written: default ports, case of the host, a trailing path", () => {
    assert.ok(sameEndpoint("https://API.example.com", "https://api.example.com:443/"));
    assert.ok(sameEndpoint("http://10.0.0.10", "http://10.0.0.10:80"));
    assert.ok(!sameEndpoint("https://10.0.0.10:6443", "https://10.0.0.11:6443"));
    assert.ok(!sameEndpoint("https://10.0.0.10:6443", "http://10.0.0.10:6443"));
    assert.ok(!sameEndpoint("https://10.0.0.10:6443", "not a url"));
});

test("refused only on proof: two uids, or an answer that is not the kubeconfig's cluster; nothing proven passes", () => {
    const A = "https://lb.example.com:6443";
    const K = "https://10.0.0.10:6443";
    assert.equal(clusterIdentityRefusal(A, K, { uid: "u1" }, { uid: "u1" }), undefined);
    assert.match(
        clusterIdentityRefusal(A, K, { uid: "u1" }, { uid: "u2" })!,
        /^apiServer\.url https:\/\/lb\.example\.com:6443 is another cluster than kubeconfig's server https:\/\/10\.0\.0\.10:6443 \(kube-system uid u2, not u1\)/,
    );
    assert.match(
        clusterIdentityRefusal(A, K, { uid: "u1" }, { refused: "it answered HTTP 401 to the kubeconfig's credentials" })!,
        /is not proven to be the cluster kubeconfig writes to .*HTTP 401/,
    );
    assert.equal(clusterIdentityRefusal(A, K, { uid: "u1" }, { unreachable: "connect ECONNREFUSED" }), undefined);
    assert.equal(clusterIdentityRefusal(A, K, { unreachable: "connect ECONNREFUSED" }, { uid: "u2" }), undefined);
});
