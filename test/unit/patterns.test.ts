// Whatever validation accepts, every later layer accepts too. For every patterned field of the
// stack, values are generated from the example stacks' own (mutated, cut, lengthened, filled with
// characters shells and OVSDB care about); each value validation accepts is then put through
// every consumer: the host script generators, the Northbound input checks and the Kubernetes
// checks. A seeded generator keeps every run the same.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, validateConfig } from "../../components/plan/validate";
import type { StackConfig } from "../../components/config/types";
import {
    centralScript,
    chassisScript,
    gatewayBridgeScript,
    gatewayConfirmScript,
    nicMoveConfirmScript,
    nicMoveScript,
    gatewayFlowsScript,
    managementPortScript,
    ovsStartScript,
    packagesScript,
    zoneScript,
} from "../../components/hosts/scripts";
import { validateKubeModel } from "../../components/kube/checkKubeModel";
import { buildClusterModel } from "../../components/model/clusterModel";
import { checkInputs } from "../../components/nb/resources/kindInputs";
import { clusterRouterKind } from "../../components/nb/kinds/clusterRouter";
import { gatewayRouterKind } from "../../components/nb/kinds/gatewayRouter";
import { nodeSwitchKind } from "../../components/nb/kinds/nodeSwitch";
import { nbConnection } from "../../components/program/connections";
import { stackConfig, type ExampleStack } from "../../lab/harness/configs";

const TRIES = 250;
/** What the chassis script and the NIC move report back in a real run. */
const GATEWAY_HOST = { systemId: "3f1e4d5c-0b6a-4e8f-9a7d-2c1b0e9f8a76", macAddress: "52:54:00:8a:4a:8a" };

type Config = Record<string, any>;
/** A patterned field: which example stack, and where in it. */
interface Field {
    stack: ExampleStack;
    path: string;
    get: (c: Config) => string;
    set: (c: Config, v: string) => void;
}

const at = (stack: Field["stack"], path: string): Field => {
    const keys = path.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== "");
    const parent = (c: Config) => keys.slice(0, -1).reduce((o, k) => o[k], c);
    const last = keys[keys.length - 1];
    return { stack, path, get: (c) => parent(c)[last], set: (c, v) => void (parent(c)[last] = v) };
};

const REPOSITORY = (c: Config) =>
    (c.packages.repository = {
        name: "ovs-upstream",
        url: "https://repo.example.com/debian",
        apt: { suite: "trixie", components: "main contrib" },
    });

/** Each field, with what the example stack lacks for it to have a value. */
const FIELDS: Array<[Field, ((c: Config) => void)?]> = [
    [at("dev", "nodes[1].name")],
    [at("dev", "nodes[1].address")],
    [at("prod", "nodes[2].address"), (c) => Object.assign(c.nodes[2], { address: "worker-0.prod.example.com", tunnelIp: "10.10.0.20" })],
    [at("dev", "nodes[1].user"), (c) => (c.nodes[1].user = "root")],
    [at("dev", "nodes[1].hostKey")],
    [at("dev", "nodes[1].tunnelIp"), (c) => (c.nodes[1].tunnelIp = "10.0.0.11")],
    [at("prod", "nodes[4].tunnelInterface"), (c) => (c.nodes[4].tunnelInterface = "eth0")],
    [at("dev", "nodes[1].subnet")],
    [at("dev", "nodes[2].gateway.interface")],
    [at("prod", "nodes[2].gateway.bridge")],
    [at("dev", "nodes[2].gateway.physicalIp")],
    [at("dev", "nodes[2].gateway.defaultGateway")],
    [at("dev", "nodes[2].gateway.rampoutSubnets[0]"), (c) => (c.nodes[2].gateway.rampoutSubnets = ["192.168.2.0/24"])],
    [at("dev", "clusterSubnet")],
    [at("dev", "serviceSubnet")],
    [at("dev", "joinSubnet")],
    [at("dev", "apiServer.url")],
    [at("prod", "apiServer.url")],
    [at("dev", "ssh.user"), (c) => (c.ssh = { user: "root" })],
    [at("prod", "packages.openvswitchVersion")],
    [at("prod", "packages.ovnVersion")],
    [at("prod", "packages.repository.name"), REPOSITORY],
    [at("prod", "packages.repository.url"), REPOSITORY],
    [at("prod", "packages.repository.apt.suite"), REPOSITORY],
    [at("prod", "packages.repository.apt.components"), REPOSITORY],
    [at("prod", "kubernetes.namespace")],
    [at("prod", "ovnkube.image"), (c) => (c.ovnkube.image = "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:release-1.3")],
    [at("staging", "ovnkube.crdMirror"), (c) => (c.ovnkube.crdMirror = "https://mirror.example.com/ovn-kubernetes/v1.3.0/crds/")],
    [at("staging", "transitSubnet")],
    [at("staging", "masqueradeSubnet")],
    [at("staging", "nodes[3].gateway.bridge")],
];

/** mulberry32: a small seeded generator, so every run tries the same values. */
function seeded(seed: number) {
    return () => {
        seed = (seed + 0x6d2b79f5) >>> 0;
        let t = seed;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** Letters, digits, separators the patterns allow, and what shells, OVSDB, URLs and YAML treat specially. */
const CHARS = "abkxzAKZ0159-_.:/@+~=, ;$'\"`()[]{}|&<>*?!#%\\\n\t";

function variant(rand: () => number, seed: string): string {
    const int = (n: number) => Math.floor(rand() * n);
    const char = () => CHARS[int(CHARS.length)];
    let v = seed;
    for (let edits = 1 + int(3); edits > 0; edits--) {
        const i = int(v.length + 1);
        switch (int(7)) {
            case 0:
                v = v.slice(0, i) + char() + v.slice(i + 1);
                break;
            case 1:
                v = v.slice(0, i) + char() + v.slice(i);
                break;
            case 2:
                v = v.slice(0, i) + v.slice(i + 1);
                break;
            case 3:
                v = v.slice(0, i) + v.slice(i).repeat(1 + int(8));
                break;
            case 4:
                v = v.replace(/[0-9]+/, () => String(int(10 ** (1 + int(6)))));
                break;
            case 5:
                v = v.slice(0, i);
                break;
            default:
                v = Array.from({ length: int(80) }, char).join("");
        }
    }
    return v;
}

/** Every consumer of the validated config, as the program calls them; throws on the first refusal. */
function everyLayerAccepts(cfg: StackConfig): void {
    const model = buildClusterModel(cfg);
    // The NB of the central, or with interconnect that of a zone (each zone's NB is on its host).
    const nbHost = model.hosts.find((h) => h.isCentral) ?? model.hosts.find((h) => h.zone)!;
    const nb = nbConnection(nbHost, { privateKeyConfig: "ovn-kubernetes:sshPrivateKey" });
    const owner = "ovn-kubernetes/dev";
    const nbAccepts = (kind: Parameters<typeof checkInputs>[0], inputs: Record<string, unknown>) => {
        const { failures } = checkInputs(kind, { nb, owner, ...inputs });
        if (failures.length > 0) throw new Error(`NB check: ${JSON.stringify(failures)}`);
    };
    for (const host of model.hosts) {
        if (!cfg.packages.skip) packagesScript(host, cfg.packages);
        ovsStartScript(host);
        if (host.isCentral) centralScript(model.central!, host.os);
        if (host.zone) zoneScript(host.zone, host.os);
        if (host.chassis) chassisScript(host, { nbAddress: model.nbAddress, sbAddress: model.sbAddress });
        const tunnel = host.chassis?.tunnelBridge;
        if (tunnel) {
            const nic = { node: host.name, mode: "shared" as const, role: "tunnel" as const, ...tunnel };
            nicMoveScript(nic, host.datapathType);
            nicMoveConfirmScript(nic, "none", `ovn-${host.name}-tunnel-move`);
        }
    }
    nbAccepts(clusterRouterKind, { router: model.clusterRouter });
    for (const network of model.nodeNetworks) {
        managementPortScript(network);
        nbAccepts(nodeSwitchKind, { network: network });
    }
    for (const gateway of model.gateways) {
        const host = model.hosts.find((h) => h.name === gateway.node)!;
        gatewayBridgeScript(gateway, host.datapathType);
        gatewayConfirmScript(gateway, "none", `ovn-${gateway.node}-gateway-move`);
        if (gateway.mode === "shared") gatewayFlowsScript(gateway);
        nbAccepts(gatewayRouterKind, { gateway: gateway, ...GATEWAY_HOST });
    }
    if (cfg.kubernetes.enabled) validateKubeModel(model.kube);
}

for (const [field, prepare] of FIELDS) {
    test(`${field.stack} ${field.path}: every value validation accepts, every layer accepts`, () => {
        const base = stackConfig(field.stack);
        prepare?.(base);
        const seed = field.get(base);
        assert.equal(typeof seed, "string", `${field.path} has no example value`);
        everyLayerAccepts(validateConfig(base));
        const rand = seeded([...field.path].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7));
        let accepted = 0;
        let refused = 0;
        for (let i = 0; i < TRIES; i++) {
            const cfg = structuredClone(base);
            const value = variant(rand, seed);
            field.set(cfg, value);
            let valid: StackConfig;
            try {
                valid = validateConfig(cfg);
            } catch (e) {
                if (!(e instanceof ConfigError)) throw e;
                refused++;
                continue;
            }
            accepted++;
            assert.doesNotThrow(() => everyLayerAccepts(valid), `${field.path} = ${JSON.stringify(value)} passed validation`);
        }
        // Both sides of the pattern were tried, or the property proves nothing for this field.
        assert.ok(accepted > 0 && refused > 0, `${field.path}: ${accepted} accepted, ${refused} refused`);
    });
}
