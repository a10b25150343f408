// The DaemonSets' command lines as the real ovnkube v1.0.0 parses them. With `--help` appended,
// ovnkube parses every flag and then prints its usage instead of starting; an unknown flag is
// refused, and a value after a boolean flag ends flag parsing early, so that ovnkube would start
// instead of printing its usage. Run in an empty network namespace with a time limit, so even that
// start reaches nothing.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { before, describe, it } from "node:test";
import { kubeManifests } from "../../components/kube/manifests";
import type { KubeModel } from "../../components/model/types";
import { labBinary } from "../../localcluster/kube";
import { kubeModel } from "./fixture";
import { expandedCommand, main } from "./inspect";

let ovnkube: string;

before(async () => {
    ovnkube = await labBinary("ovnkube");
});

/** ovnkube's verdict on a command line: its usage text when every flag parsed, else what it said. */
function parse(args: readonly string[], timeoutMs = 10_000): { parsed: boolean; output: string } {
    const r = spawnSync("unshare", ["--net", ovnkube, ...args, "--help"], { encoding: "utf8", timeout: timeoutMs, killSignal: "SIGKILL" });
    const output = `${r.stdout}${r.stderr}`;
    return { parsed: r.status === 0 && output.includes("GLOBAL OPTIONS:") && !output.includes("Incorrect Usage"), output };
}

function daemonSetArgs(model: KubeModel): Array<[string, string[]]> {
    const m = kubeManifests(model);
    return [m.master, ...m.nodes].map((ds) => [ds.metadata.name, expandedCommand(main(ds), model.config, { node: "worker-0", hostIP: "10.19.188.23" }).slice(1)]);
}

describe("ovnkube v1.0.0 parses the DaemonSets' command lines", () => {
    const ssl = kubeModel({ config: { ...kubeModel().config, OvnNorth: "ssl:10.0.0.5:6641", OvnSouth: "ssl:10.0.0.5:6642" } });

    for (const [what, model] of [["tcp databases", kubeModel()], ["ssl databases", ssl]] as const) {
        it(`with ${what}`, () => {
            for (const [name, args] of daemonSetArgs(model)) {
                assert.ok(!args.some((a) => a.includes("$(")), `${name}: ${args.join(" ")}`);
                const r = parse(args);
                assert.ok(r.parsed, `${name}: ${r.output.split("\n").slice(0, 3).join("\n")}`);
            }
        });
    }

    it("and this check tells an unknown flag, a bad value and a stray value apart from a good line", () => {
        assert.equal(parse(["-init-master", "n1", "-nodeport", "-mtu", "1400"]).parsed, true);
        const unknown = parse(["-init-master", "n1", "-no-such-flag", "x"]);
        assert.equal(unknown.parsed, false);
        assert.match(unknown.output, /flag provided but not defined: -no-such-flag/);
        assert.match(parse(["-init-master", "n1", "-mtu", "many"]).output, /invalid value "many" for flag -mtu/);
        // A value after a boolean flag: parsing stops there, --help is never seen and ovnkube starts.
        assert.equal(parse(["-init-master", "n1", "-nodeport", "x", "-mtu", "1400"], 3_000).parsed, false);
    });
});
