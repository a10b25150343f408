// The user-defined networks check of a Kubernetes node's script bundle: the host read (the script
// passes bash -n and shellcheck; its answer parsed), the refusal naming what is missing, and the
// bundle's check and create against this machine over SSH, which, like the development machines,
// runs no systemd and has a kernel without VRF: refused at check, naming both, and at create
// before anything is installed.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { describe, it } from "node:test";
import { parseUdnHost, READ_UDN_HOST_SCRIPT, udnHostRefusal } from "../../components/compat/udnHost";
import { scriptBundleProvider } from "../../components/hosts/scriptBundle";
import { scriptBundle } from "../../components/hosts/scripts/bundle";
import { run } from "../../lab/localcluster/run";
import { lintScript } from "../hosts/support/bash";
import { bundleOverSsh } from "../support/bundleOverSsh";

const PLAN = { node: "node2" };

describe("the UDN host read", () => {
    it("passes shellcheck, and its answer names systemd's bus and the kernel's VRF", () => {
        assert.deepEqual(lintScript(READ_UDN_HOST_SCRIPT), []);
        assert.deepEqual(parseUdnHost("systemd=yes\nvrf=module\n"), { systemdBus: true, vrf: "module" });
        assert.deepEqual(parseUdnHost("systemd=no\nvrf=maybe\n"), { systemdBus: false, vrf: "unknown" });
    });

    it("refuses a host without systemd or VRF, naming each and the setting, and accepts one with both or an unknown kernel", () => {
        assert.equal(udnHostRefusal(PLAN, { systemdBus: true, vrf: "builtin" }), undefined);
        assert.equal(udnHostRefusal(PLAN, { systemdBus: true, vrf: "unknown" }), undefined);
        const both = udnHostRefusal(PLAN, { systemdBus: false, vrf: "absent" })!;
        assert.match(
            both,
            /^node2 cannot run ovnkube-node with ovnkube\.features\.networkSegmentation: no systemd \(no \/run\/systemd\/private\)/,
        );
        assert.match(both, /a kernel without VRF \(CONFIG_NET_VRF\)/);
        assert.doesNotMatch(udnHostRefusal(PLAN, { systemdBus: true, vrf: "absent" })!, /no systemd/);
    });
});

describe("the UDN host check of a script bundle against a host over SSH", () => {
    const host = bundleOverSsh();
    const inputs = () => host.inputs({ udnHost: PLAN });

    it("refuses at check this machine, without systemd and VRF, and at create before installing anything", async () => {
        const config = (await run(["sh", "-c", "zcat /proc/config.gz | grep CONFIG_NET_VRF"])).stdout;
        assert.ok(
            !fs.existsSync("/run/systemd/private") && /CONFIG_NET_VRF is not set/.test(config),
            `this test needs a machine without systemd and VRF, as the development machines are: ${config}`,
        );
        const r = await scriptBundleProvider.check!({}, inputs());
        assert.deepEqual(
            r.failures?.map((f) => f.property),
            ["udnHost"],
        );
        assert.match(
            r.failures![0].reason,
            /^node2 cannot run ovnkube-node with ovnkube\.features\.networkSegmentation: no systemd .*; and a kernel without VRF/,
        );
        await assert.rejects(scriptBundleProvider.create!(inputs()), /node2 cannot run ovnkube-node/);
        assert.equal(fs.existsSync(scriptBundle().dir), false, "no bundle installed");
    });
});
