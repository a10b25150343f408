// Validation in two steps, all before anything is registered: the JSON Schema (ajv, which also
// fills defaults), then the semantic checks. Every problem names its config path; all are reported
// at once.
import Ajv, { ErrorObject, ValidateFunction } from "ajv";
import { PATTERNS } from "../values";
import { gatewayBridgeOf, nodeIpsOf, tunnelIpOf } from "../model/nodes";
import { clusterFamilies, hostSubnetLengthsOf, listOf, rangesOf } from "../config/families";
import { buildClusterModel } from "../model/clusterModel";
import type { ClusterModel } from "../model/types";
import { generatedNameClashes, generatedNames } from "./checks/generatedNames";
import { stackConfigSchema } from "../config/schema";
import { PROJECT } from "../config/stackFile";
import { semanticProblems } from "./checks/semantic";
import { withoutCredentials } from "./checks/transports";
import { ConfigError, type Problem } from "../config/problem";
import type { SecretTexts } from "./checks/keyMaterial";
import { kubeNameClashes } from "./checks/kubeNames";
import { OVNKUBE_VERSIONS, releaseOf } from "../config/releases";
import { SECRET_KEYS, type OvnkubeConfig, SecretKey, StackConfig, StackConfigInput } from "../config/types";

export { ConfigError };

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: true, allowUnionTypes: true, verbose: true });
const schemaCheck: ValidateFunction = ajv.compile(stackConfigSchema);

/** `/nodes/2/subnet` → `nodes[2].subnet` */
export function configPath(pointer: string): string {
    return pointer
        .split("/")
        .slice(1)
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
        .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), "");
}

/** Schema patterns are the shared table's: report what a valid value is, not the regular expression. */
const PATTERN_WHAT = new Map<string, string>(Object.values(PATTERNS).map((p) => [p.source, p.what]));

/** Settings that moved, with where they live now. */
const MOVED: Record<string, string> = { ovnkubeImage: "ovnkube.image" };

/** A key under a misspelled namespace (see ./stackFile.ts) is named with the namespace it should have. */
function unknownSetting(key: string): string {
    if (MOVED[key]) return `is not a known setting: it is ${MOVED[key]} now`;
    const colon = key.indexOf(":");
    if (colon < 0) return "is not a known setting";
    return `is not a known setting: its namespace "${key.slice(0, colon)}" is not "${PROJECT}"; write ${PROJECT}:${key.slice(colon + 1)}`;
}

function schemaProblem(e: ErrorObject): Problem {
    const base = configPath(e.instancePath);
    const at = (child: string) => (base ? `${base}.${child}` : child);
    switch (e.keyword) {
        case "required":
            return { path: at(String(e.params.missingProperty)), message: "is required" };
        case "additionalProperties":
            return { path: at(String(e.params.additionalProperty)), message: unknownSetting(String(e.params.additionalProperty)) };
        case "pattern":
            return {
                path: base,
                message: `must be ${PATTERN_WHAT.get(String(e.params.pattern)) ?? `like ${e.params.pattern}`}, got ${JSON.stringify(typeof e.data === "string" ? withoutCredentials(e.data) : e.data)}`,
            };
        case "enum":
            if (base === "ovnkube.version")
                return {
                    path: base,
                    message: `${JSON.stringify(e.data)} is not a supported ovn-kubernetes release: upstream maintains only ${OVNKUBE_VERSIONS.join(" and ")}; use one of them`,
                };
            return { path: base, message: `must be one of ${(e.params.allowedValues as unknown[]).join(", ")}` };
        default:
            return { path: base || "(root)", message: e.message ?? e.keyword };
    }
}

/** Keeps one message per path for unions (oneOf/anyOf produce one error per branch). */
function dedupe(problems: Problem[]): Problem[] {
    const seen = new Set<string>();
    return problems.filter((p) => {
        const k = p.path;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
    });
}

/**
 * Validates raw stack config (the `ovn-kubernetes:` keys, secrets as values or `{secure}` markers)
 * and returns it with defaults applied and secret values dropped. Throws ConfigError. `secretTexts`
 * are the secrets' plain values where the caller has them (the program): their key material is
 * parsed too, and never quoted.
 */
export function validateConfig(raw: unknown, secretTexts: SecretTexts = {}): StackConfig {
    return planCluster(raw, secretTexts).config;
}

/** A valid configuration, its defaults filled, and the cluster model planned from it. */
export interface ClusterPlan {
    config: StackConfig;
    model: ClusterModel;
}

/** validateConfig's checks, returning the model they planned: built once, for the component to use. */
export function planCluster(raw: unknown, secretTexts: SecretTexts = {}): ClusterPlan {
    const input = structuredClone(raw) as StackConfigInput;
    if (!schemaCheck(input)) {
        const problems = (schemaCheck.errors ?? []).filter((e) => !["oneOf", "anyOf", "if"].includes(e.keyword)).map(schemaProblem);
        throw new ConfigError(dedupe(problems.length ? problems : (schemaCheck.errors ?? []).map(schemaProblem)));
    }
    const secretsPresent = SECRET_KEYS.filter((k) => input[k] !== undefined);
    const problems = semanticProblems(input as Parameters<typeof semanticProblems>[0], new Set<SecretKey>(secretsPresent), secretTexts);
    if (problems.length) throw new ConfigError(problems);
    const config = withDefaults(input, secretsPresent);
    const model = buildClusterModel(config);
    const nodeIndex = (node: string) => config.nodes.findIndex((n) => n.name === node);
    const clashes = [...generatedNameClashes(generatedNames(model, nodeIndex)), ...kubeNameClashes(config, model)];
    if (clashes.length) throw new ConfigError(clashes);
    return { config, model };
}

function withDefaults(input: StackConfigInput, secretsPresent: SecretKey[]): StackConfig {
    const ssh = input.ssh as StackConfig["ssh"];
    const datapathType = input.datapathType ?? "system";
    const ipFamilies = clusterFamilies(input);
    return {
        nodes: input.nodes.map(({ subnet, nodeIp, ...n }) => ({
            ...n,
            port: n.port ?? ssh.port,
            user: n.user ?? ssh.user,
            os: n.os ?? "debian",
            datapathType: n.datapathType ?? datapathType,
            tunnelIp: tunnelIpOf(n) ?? "",
            nodeIps: nodeIpsOf({ ...n, nodeIp }),
            ...(subnet === undefined ? {} : { subnets: listOf(subnet) }),
            gateway: n.gateway && { ...n.gateway, bridge: gatewayBridgeOf(n.gateway), rampoutSubnets: n.gateway.rampoutSubnets ?? [] },
        })),
        ipFamilies,
        clusterSubnets: rangesOf(input, "clusterSubnet", ipFamilies),
        hostSubnetLengths: hostSubnetLengthsOf(input.hostSubnetLength, ipFamilies),
        serviceSubnets: rangesOf(input, "serviceSubnet", ipFamilies),
        joinSubnets: rangesOf(input, "joinSubnet", ipFamilies),
        transitSubnets: rangesOf(input, "transitSubnet", ipFamilies),
        masqueradeSubnets: rangesOf(input, "masqueradeSubnet", ipFamilies),
        encapType: input.encapType!,
        mtu: input.mtu!,
        datapathType,
        apiServer: input.apiServer,
        ovnTransport: input.ovnTransport as StackConfig["ovnTransport"],
        ssh,
        packages: input.packages as StackConfig["packages"],
        kubernetes: input.kubernetes as StackConfig["kubernetes"],
        ovnkube: {
            ...(input.ovnkube as OvnkubeConfig),
            image: input.ovnkube!.image ?? releaseOf(input.ovnkube!.version!).image,
            imageOvnVersion: input.ovnkube!.imageOvnVersion ?? releaseOf(input.ovnkube!.version!).imageOvn,
        },
        lab: input.lab!,
        secretsPresent,
    };
}
