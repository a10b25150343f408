// Changing the tunnel type of a running cluster: geneve → vxlan
// is refused at preview, and by `up` before anything is touched, with the reason
// (components/compat/tunnelType.ts): the nodes registered with geneve, why a rolling change cuts
// pods off, vxlan's limits, and the way out. The Southbound's encaps, every host's
// ovn-encap-type and the NB rows stay as they were, and pods keep pinging throughout. With
// geneve back in the stack, up changes nothing. (ovnkube mode: validate refuses anything but
// geneve, test/support/invalidConfigs.ts.)
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { apply, preview } from "../../../lab/offline/api";
import { changeEncapType, editStack, hostOut, PROJECT_KEY, sortedLines, type LiveLab } from "../../../lab/scenarios/liveChange";

let lab: LiveLab;
let before_: Awaited<ReturnType<typeof rows>>;

const central = () => lab.model.hosts.find((h) => h.isCentral)!.name;
async function rows() {
    const sb = (args: string[]) => hostOut(lab.cluster, central(), ["ovn-sbctl", "--bare", ...args]).then(sortedLines);
    const nb = (args: string[]) => hostOut(lab.cluster, central(), ["ovn-nbctl", "--bare", ...args]).then(sortedLines);
    const encapTypes: string[] = [];
    for (const h of lab.cluster.hosts)
        encapTypes.push(
            `${h.name} ${(await hostOut(lab.cluster, h.name, ["ovs-vsctl", "get", "Open_vSwitch", ".", "external_ids:ovn-encap-type"])).trim()}`,
        );
    return {
        sbEncaps: await sb(["--columns=ip,type", "list", "Encap"]),
        sbChassis: await sb(["--columns=name", "list", "Chassis"]),
        nbSwitches: await nb(["--columns=name", "list", "Logical_Switch"]),
        nbPorts: await nb(["--columns=name", "list", "Logical_Switch_Port"]),
        nbRouters: await nb(["--columns=name", "list", "Logical_Router"]),
        encapTypes,
    };
}
const setEncap = (type: string) => editStack(lab, (config) => (config[PROJECT_KEY("encapType")] = type));

/** The checks of the tunnel type, on the shared live lab. */
export function tunnelTypeChecks(live: () => LiveLab): void {
    describe("the tunnel type", () => {
        before(async () => {
            lab = live();
            before_ = await rows();
            assert.equal(before_.sbEncaps.filter((l) => l === "geneve").length, 3, before_.sbEncaps.join("\n"));
        });

        const REASON =
            /encapType: vxlan cannot replace geneve on a running cluster: node1 \(geneve\), node2 \(geneve\), node3 \(geneve\) are registered with geneve tunnels\. OVN builds tunnels only between chassis that share an encap type.*4096 logical switches.*destroy the cluster and create it again with vxlan/;

        test("geneve → vxlan: preview refuses, naming encapType and why", async () => {
            setEncap("vxlan");
            const p = await preview(lab.options);
            assert.equal(p.ok, false);
            assert.match(p.error ?? "", REASON);
        });

        test("up refuses before touching anything; rows, host settings and pod traffic unchanged", async (t) => {
            const o = await changeEncapType(lab, "vxlan");
            assert.equal(o.result.ok, false);
            assert.match(o.result.error ?? "", REASON);
            assert.deepEqual(
                o.result.ops.filter((x) => x.op !== "same" && !x.error).map((x) => `${x.op} ${x.name}`),
                [],
                "no step carried out",
            );
            t.diagnostic(
                `refused after ${o.seconds.toFixed(1)} s; untouched pairs ${o.traffic.map((x) => `${x.lost}/${x.sent}`).join(", ")} lost`,
            );
            for (const x of o.traffic) assert.equal(x.lost, 0);
            assert.deepEqual(await rows(), before_);
        });

        test("geneve back in the stack: up changes nothing", async () => {
            setEncap("geneve");
            const r = await apply(lab.options);
            assert.equal(r.ok, true, r.error);
            assert.deepEqual(
                r.ops.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name}`),
                [],
            );
            assert.deepEqual(await rows(), before_);
        });
    });
}
