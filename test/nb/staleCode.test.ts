// Refresh and delete run the installed package, not code frozen in state. A project is set up
// with its own copy of the package in node_modules (as `npm install` of a release would leave
// it); resources are created through the provider host there; the package is then changed (a
// new build that marks every provider call it serves) without touching the state; a new
// provider host, as the next `pulumi refresh` / `destroy` starts, runs the changed package for
// read and delete, and the rows go.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { destroy, refresh, up, type Tracked } from "../../lab/harness/engine";
import { devModel, findColumn } from "../../lab/harness/env";
import { startDevTopology, type DevTopology } from "./support/devTopology";
import { startProviderHost } from "../../lab/harness/providerHost";
import { projectWithPackageCopy } from "../../lab/harness/packageCopy";

const model = devModel();

/** The "new release": the same package, except that every provider call it serves is logged to `marker`. */
function changePackage(pkg: string, marker: string): void {
    const registry = path.join(pkg, "dist", "dynamic", "registry.js");
    fs.appendFileSync(
        registry,
        `\nconst released = exports.installedProvider;\n` +
            `exports.installedProvider = (token, contract, writtenBy) => Object.fromEntries(Object.entries(released(token, contract, writtenBy)).map(([method, f]) => ` +
            `[method, (...args) => (require("fs").appendFileSync(${JSON.stringify(marker)}, token + " " + method + "\\n"), f(...args))]));\n`,
    );
}

describe("refresh and delete run the installed package, whatever the state's stub was created with", () => {
    let topology: DevTopology;
    let project: string;
    let pkg: string;
    let marker: string;

    before(async () => {
        project = fs.mkdtempSync(path.join(os.tmpdir(), "pk-stale-"));
        pkg = projectWithPackageCopy(project);
        marker = path.join(project, "calls.log");
        topology = await startDevTopology(model);
    });
    after(async () => {
        await topology?.stop();
        fs.rmSync(project, { recursive: true, force: true });
    });

    it("created with one build, refreshed and deleted by the next: the new code runs, proven by its marker", async () => {
        const router = topology.tracked["cluster-router"];
        const node: Tracked = topology.tracked[`node-${model.nodeNetworks[0].node}`];
        const switchName = model.nodeNetworks[0].switchName;

        const first = await startProviderHost(topology.env.providerConfig, project);
        try {
            assert.equal((await up(first, router)).action, "create");
            assert.equal((await up(first, node)).action, "create");
        } finally {
            await first.stop();
        }
        assert.deepEqual(await findColumn(topology.env.nb, "Logical_Switch", "name", `name=${switchName}`), [switchName]);
        assert.equal(fs.existsSync(marker), false, "the first build marks nothing");
        const stored = node.outputs!.__provider;

        changePackage(pkg, marker);
        const next = await startProviderHost(topology.env.providerConfig, project);
        try {
            const refreshed = await refresh(next, node);
            assert.equal(refreshed?.__provider, stored, "the state's stub is what ran");
            await destroy(next, node);
            await destroy(next, router);
        } finally {
            await next.stop();
        }
        // The host configures each provider stub it loads (with the stack config the SSH key comes from), then calls it.
        assert.deepEqual(fs.readFileSync(marker, "utf8").trim().split("\n"), [
            "ovn-nb:NodeSwitch configure",
            "ovn-nb:NodeSwitch read",
            "ovn-nb:NodeSwitch delete",
            "ovn-nb:ClusterRouter configure",
            "ovn-nb:ClusterRouter delete",
        ]);
        assert.deepEqual(await findColumn(topology.env.nb, "Logical_Switch", "name", `name=${switchName}`), []);
        assert.deepEqual(await findColumn(topology.env.nb, "Logical_Router", "name", "name=ovn_cluster_router"), []);
    });
});
