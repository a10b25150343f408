// The Open vSwitch check of a Kubernetes node with OVN from the image: the host read (bash -n and
// shellcheck; its answer parsed from running, installed and candidate versions), the refusal
// naming both versions and the fix, and the bundle's check and create against this machine over
// SSH, whose Open vSwitch is Debian 12's 3.1.0: accepted for the OVN lines the project knows, and
// refused, before anything is installed, where a plan asks for a newer one.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { describe, it } from "node:test";
import { imageOvsRefusal, parseHostOvs, READ_OVS_SCRIPT } from "../../components/compat/imageOvs";
import { KNOWN_IMAGE_OVN_LINES, minimumOvsFor } from "../../components/config/ovnSource";
import { scriptBundleProvider } from "../../components/hosts/scriptBundle";
import { scriptBundle } from "../../components/hosts/scripts/bundle";
import { run } from "../../lab/localcluster/run";
import { lintScript } from "../hosts/support/bash";
import { bundleOverSsh } from "../support/bundleOverSsh";

const PLAN = { node: "node2", ovn: "26.03", minimumOvs: "3.1.0" };

describe("the host's Open vSwitch read", () => {
    it("passes shellcheck, and its answer is the running, installed or offered version", () => {
        assert.deepEqual(lintScript(READ_OVS_SCRIPT), []);
        assert.deepEqual(parseHostOvs("running 3.5.0\n"), { source: "running", version: "3.5.0" });
        assert.deepEqual(parseHostOvs("installed 3.1.0\n"), { source: "installed", version: "3.1.0" });
        // Package versions: the upstream part (an epoch and Debian's revision dropped).
        assert.deepEqual(parseHostOvs("candidate 3.5.0-1+b1\n"), { source: "candidate", version: "3.5.0" });
        assert.deepEqual(parseHostOvs("candidate 1:3.7.1~git20260101-1\n"), { source: "candidate", version: "3.7.1" });
        assert.equal(parseHostOvs(""), undefined);
    });

    it("refuses an Open vSwitch older than the image's OVN needs, naming both versions and the fix", () => {
        assert.equal(imageOvsRefusal(PLAN, { source: "running", version: "3.1.0" }), undefined);
        assert.equal(imageOvsRefusal(PLAN, { source: "candidate", version: "3.5.0" }), undefined);
        assert.equal(
            imageOvsRefusal(PLAN, { source: "installed", version: "2.17.9" }),
            "node2 has installed Open vSwitch 2.17.9, and the OVN 26.03 of ovnkube.image needs Open vSwitch 3.1.0 or newer on the host it drives. " +
                "Fix: install Open vSwitch 3.1.0+ on node2 (packages.repository and packages.openvswitchVersion), or run the node on a distribution that ships it (Debian 13: 3.5).",
        );
    });

    it("knows the Open vSwitch each OVN line of the releases' images needs", () => {
        assert.deepEqual(KNOWN_IMAGE_OVN_LINES, ["25.09", "26.03"]);
        assert.equal(minimumOvsFor("25.09.0"), "3.1.0");
        assert.equal(minimumOvsFor("26.03"), "3.1.0");
        assert.equal(minimumOvsFor("27.03"), undefined);
    });
});

describe("the Open vSwitch check of a script bundle against a host over SSH", () => {
    const host = bundleOverSsh();

    it("reads this machine's Open vSwitch and accepts it for the OVN lines of the releases' images", async () => {
        const here = parseHostOvs((await run(["bash", "-c", READ_OVS_SCRIPT])).stdout);
        assert.ok(here, "this machine has Open vSwitch (scripts/install-os-packages.sh installs it)");
        for (const ovn of KNOWN_IMAGE_OVN_LINES) {
            const r = await scriptBundleProvider.check!({}, host.inputs({ imageOvs: { ...PLAN, ovn, minimumOvs: minimumOvsFor(ovn)! } }));
            assert.deepEqual(r.failures, [], `${ovn} on Open vSwitch ${here.version}`);
        }
    });

    it("refuses at check a host whose Open vSwitch is older than the plan's minimum, and at create before installing anything", async () => {
        const here = parseHostOvs((await run(["bash", "-c", READ_OVS_SCRIPT])).stdout)!;
        const [major, minor] = here.version.split(".").map(Number);
        const newer = `${major}.${minor + 1}.0`;
        const inputs = host.inputs({ imageOvs: { ...PLAN, minimumOvs: newer } });
        const r = await scriptBundleProvider.check!({}, inputs);
        assert.deepEqual(
            r.failures?.map((f) => f.property),
            ["imageOvs"],
        );
        assert.match(
            r.failures![0].reason,
            new RegExp(
                `^node2 (runs|has installed) Open vSwitch ${here.version.replace(/\./g, "\\.")}, and the OVN 26\\.03 of ovnkube\\.image needs Open vSwitch ${newer.replace(/\./g, "\\.")} or newer`,
            ),
        );
        await assert.rejects(scriptBundleProvider.create!(inputs), /needs Open vSwitch .* or newer/);
        assert.equal(fs.existsSync(scriptBundle().dir), false, "no bundle installed");
    });
});
