// The DaemonSets' command lines as the real ovnkube of each supported release (v1.3.0, v1.2.0)
// parses them, in both architectures. With `--help` appended, ovnkube parses every flag and then
// prints its usage instead of starting; an unknown flag is refused, and a value after a boolean
// flag ends flag parsing early, so that ovnkube would start instead of printing its usage. Run in
// an empty network namespace with a time limit, so even that start reaches nothing.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { before, describe, it } from "node:test";
import { kubeManifests } from "../../components/kube/manifests";
import { OVNKUBE_VERSIONS, type OvnkubeVersion } from "../../components/config/releases";
import { FEATURE_KEYS, FEATURES, featureSettings, releaseHas } from "../../components/config/features";
import type { KubeModel } from "../../components/model/types";
import { labBinary } from "../../lab/localcluster/kube/labBinaries";
import { ovnKubernetesLabRelease } from "../../lab/localcluster/labReleases";
import { bothArchitectures, kubeModel } from "./fixture";
import { expandedCommand, main } from "./inspect";

/** ovnkube's verdict on a command line: its usage text when every flag parsed, else what it said. */
function parse(ovnkube: string, args: readonly string[], timeoutMs = 10_000): { parsed: boolean; output: string } {
    const r = spawnSync("unshare", ["--net", ovnkube, ...args, "--help"], { encoding: "utf8", timeout: timeoutMs, killSignal: "SIGKILL" });
    const output = `${r.stdout}${r.stderr}`;
    return { parsed: r.status === 0 && output.includes("GLOBAL OPTIONS:") && !output.includes("Incorrect Usage"), output };
}

function daemonSetArgs(model: KubeModel): Array<[string, string[]]> {
    const m = kubeManifests(model);
    return [m.controlPlane, ...m.nodes].map((ds) => [
        ds.metadata.name,
        expandedCommand(main(ds), model.config, { node: "worker-0", hostIP: "10.19.188.23" }).slice(1),
    ]);
}

/** Every feature the release has switched on, so that each of their flags reaches its processes. */
const releaseFeatures = (version: OvnkubeVersion) =>
    featureSettings(Object.fromEntries(FEATURE_KEYS.map((k) => [k, releaseHas(version, k)])));

/**
 * The fixture's models for one release: both architectures with the chart's features, both with
 * every feature the release has and the local gateway mode, and centralized with ssl: databases.
 */
function models(version: OvnkubeVersion): Array<[string, KubeModel]> {
    const ssl = kubeModel({ version, config: { ...kubeModel().config, OvnNorth: "ssl:10.0.0.5:6641", OvnSouth: "ssl:10.0.0.5:6642" } });
    const everything = bothArchitectures({ version, features: releaseFeatures(version), gatewayMode: "local", egressIpHealthCheckPort: 0 });
    return [
        ...bothArchitectures({ version }),
        ...everything.map(([a, m]): [string, KubeModel] => [`${a}, every feature of ${version}, local gateway`, m]),
        ["centralized with ssl databases", ssl],
    ];
}

for (const version of OVNKUBE_VERSIONS) {
    const release = ovnKubernetesLabRelease(version);

    describe(`ovnkube ${release.version} parses the DaemonSets' command lines`, () => {
        let ovnkube: string;

        before(async () => {
            ovnkube = await labBinary("ovnkube", release);
        });

        it(`is the ${release.version} build`, () => {
            const r = spawnSync(ovnkube, ["--version"], { encoding: "utf8", timeout: 10_000 });
            assert.match(`${r.stdout}${r.stderr}`, new RegExp(`\\b${release.version.slice(1).replace(/\./g, "\\.")}\\b`));
        });

        for (const [what, model] of models(version)) {
            it(what, () => {
                const lines = daemonSetArgs(model);
                assert.equal(lines.length, 3);
                for (const [name, args] of lines) {
                    assert.ok(!args.some((a) => a.includes("$(")), `${name}: ${args.join(" ")}`);
                    const r = parse(ovnkube, args);
                    assert.ok(
                        r.parsed,
                        `${name}: ${
                            r.output
                                .split("\n")
                                .filter((l) => /^\s*[FE]\d{4}|Incorrect|flag/.test(l))
                                .slice(0, 3)
                                .join("\n") || r.output.slice(0, 400)
                        }`,
                    );
                }
            });
        }

        it("lacks the flags of the features of later releases, which validation refuses", () => {
            const later = FEATURE_KEYS.filter((k) => !releaseHas(version, k));
            if (version === "1.2") assert.deepEqual(later, ["allowIcmpNetworkPolicy", "evpn", "networkConnect", "dynamicUdnAllocation"]);
            // v1.2.0's ovnkube parses --enable-network-connect, but its chart neither offers the
            // value nor ships the ClusterNetworkConnect CRD: the feature is 1.3's (docs/facts/udn.md).
            for (const k of later.filter((k) => k === "networkConnect"))
                assert.equal(parse(ovnkube, ["-init-cluster-manager", "n1", `-${FEATURES[k].flag}`]).parsed, true);
            for (const k of later.filter((k) => k !== "networkConnect"))
                assert.match(
                    parse(ovnkube, ["-init-cluster-manager", "n1", `-${FEATURES[k].flag}`]).output,
                    new RegExp(`flag provided but not defined: -${FEATURES[k].flag}`),
                );
        });

        it("and this check tells an unknown flag, a bad value and a stray value apart from a good line", () => {
            assert.equal(parse(ovnkube, ["-init-cluster-manager", "n1", "-enable-interconnect", "-mtu", "1400"]).parsed, true);
            const unknown = parse(ovnkube, ["-init-cluster-manager", "n1", "-no-such-flag", "x"]);
            assert.equal(unknown.parsed, false);
            assert.match(unknown.output, /flag provided but not defined: -no-such-flag/);
            assert.match(parse(ovnkube, ["-init-cluster-manager", "n1", "-mtu", "many"]).output, /invalid value "many" for flag -mtu/);
            // A value after a boolean flag: parsing stops there, --help is never seen and ovnkube starts.
            assert.equal(parse(ovnkube, ["-init-cluster-manager", "n1", "-enable-interconnect", "x", "-mtu", "1400"], 3_000).parsed, false);
        });
    });
}
