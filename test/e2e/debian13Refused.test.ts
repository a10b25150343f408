// ovn-kubernetes 1.3 needs OVN 25.09 or newer where its databases run: on a Debian 13 host (OVN
// 25.03, NB schema 7.11.0) preview refuses the stack, naming the schema and the OVN it needs,
// before anything is touched: no state written, no OVS/OVN daemon, no namespace, no Node plan.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, test } from "node:test";
import { NODE_SUBNETS_ANNOTATION } from "../../components/kube/objectNames";
import { down } from "../../lab/localcluster";
import { preview } from "../../lab/offline/api";
import { startOvnkubeLab } from "../../lab/scenarios/ovnkubeLab";
import { ovsOvnDaemons } from "./support/hostDaemons";
import { phase } from "./support/phase";

const ID = "e2eold";
const work = fs.mkdtempSync(path.join(tmpdir(), "e2e-debian13-"));

after(async () => {
    await down(ID);
    fs.rmSync(work, { recursive: true, force: true });
});

test("ovn-kubernetes 1.3 on Debian 13 (OVN 25.03) is refused at preview, before anything changes", async () => {
    const old = await phase("Debian 13 lab bring-up", () => startOvnkubeLab({ id: ID, hosts: 1, os: "debian13", workDir: work }));
    try {
        const r = await phase("preview", () => preview(old.offline));
        assert.equal(r.ok, false);
        assert.match(r.error ?? "", /OVN_Northbound 7\.11\.0 \(needs 7\.12\.0\)/);
        assert.match(r.error ?? "", /OVN 25\.09 or newer/);
        assert.deepEqual(
            r.ops.filter((o) => o.error).map((o) => o.name),
            ["ovn-node1-scripts"],
        );

        assert.equal(fs.existsSync(path.join(work, "state", `${old.offline.stack}.json`)), false, "preview wrote a state");
        assert.deepEqual(ovsOvnDaemons(old.cluster), []);
        const ns = old.model.kube.namespace;
        assert.equal(await old.admin.tryGet({ apiVersion: "v1", kind: "Namespace", name: ns }), undefined);
        for (const node of await old.admin.list("v1", "Node"))
            assert.equal(node.metadata.annotations?.[NODE_SUBNETS_ANNOTATION], undefined, `${node.metadata.name} got a plan`);
    } finally {
        old.admin.close();
    }
});
