// Runs the real program (index.ts) under the Pulumi SDK's mocks with a stack file's config and
// test secrets, recording every registered resource. One program per process: node's test runner
// gives each test file its own process, which Pulumi's global runtime state needs.
import * as pulumi from "@pulumi/pulumi";
import * as path from "path";
import type { OvnKubernetesCluster } from "@ovn-kubernetes-as-code/cluster";
import { readStackFile, SECRET_KEYS } from "@ovn-kubernetes-as-code/cluster/config";
import { DEFAULT_OVNKUBE_VERSION, webhookCertificateProvider } from "@ovn-kubernetes-as-code/cluster/kube";
import { ipsecCertificatesProvider } from "@ovn-kubernetes-as-code/cluster/hosts";
import { isSecretValue } from "../offline/sdk";
import { ROOT } from "./configs";
import { labCrdMirror } from "./crdMirror";
import { testSecretTexts } from "./secretMaterial";

export interface Recorded {
    type: string;
    name: string;
    inputs: Record<string, any>;
    /** Name of the parent resource (from a stack transformation). */
    parent?: string;
    /** The outputs it asked the engine to keep secret (`additionalSecretOutputs`). */
    secretOutputs?: string[];
    /** What the engine keeps of the registration beside the properties (URNs as the mock monitor made them). */
    registration?: {
        custom: boolean;
        urn: string;
        parentUrn: string;
        dependencies: string[];
        propertyDependencies: Record<string, string[]>;
        provider: string;
        additionalSecretOutputs: string[];
        replaceOnChanges: string[];
        /** Where the program registered it (`project:///file#line,column`), as the SDK reports it. */
        sourcePosition?: string;
        /** A component's outputs, as it registered them (registerOutputs). */
        outputs?: Record<string, unknown>;
    };
}

export const WEBHOOK_CERTIFICATE = "pulumi-nodejs:dynamic/ovn-kubernetes:WebhookCertificate";
export const IPSEC_CERTIFICATES = "pulumi-nodejs:dynamic/ovn-kubernetes:IpsecCertificates";

/**
 * A resource's state as the engine would return it after creating it: its inputs, and for the
 * certificates, whose outputs the program reads, what their own providers make.
 */
export async function createdState(args: pulumi.runtime.MockResourceArgs): Promise<Record<string, unknown>> {
    if (args.type === WEBHOOK_CERTIFICATE) return { ...args.inputs, ...(await webhookCertificateProvider.create(args.inputs)).outs };
    if (args.type === IPSEC_CERTIFICATES) return { ...args.inputs, ...(await ipsecCertificatesProvider.create!(args.inputs)).outs };
    return { ...args.inputs };
}

/** Real key material with a distinctive second line each, so a test can search every output for them. */
export const TEST_SECRETS: Record<string, string> = testSecretTexts();

/**
 * The stack's config with the release's CRDs read from the lab's copy (unless the stack names a
 * mirror): the Ovnkube component reads them when the program runs, and tests never reach the network.
 */
export function withLabCrdMirror(raw: Record<string, any>): Record<string, any> {
    const ovnkube = { ...(raw.ovnkube ?? {}) };
    ovnkube.crdMirror ??= labCrdMirror(ovnkube.version ?? DEFAULT_OVNKUBE_VERSION);
    return { ...raw, ovnkube };
}

/** createdState, and for host scripts the result they print last: a system-id (chassis) or a NIC MAC (gateway bridge). */
export async function programState(args: pulumi.runtime.MockResourceArgs): Promise<Record<string, unknown>> {
    const outputs = await createdState(args);
    if (args.type === "command:remote:Command")
        outputs.stdout = args.name.endsWith("-bridge") ? "52:54:00:12:34:56\n" : "3f1e4d5c-0b6a-4e8f-9a7d-2c1b0e9f8a76\n";
    return outputs;
}

/** What the program (index.ts) exports: the cluster's outputs that operators look up. */
type ProgramOutputs = Pick<
    OvnKubernetesCluster,
    "nodeSubnets" | "routerIps" | "managementIps" | "nbAddress" | "sbAddress" | "systemIds" | "kubernetesServer"
>;

export async function runProgramUnderMocks(stack: string, overrides: Record<string, unknown> = {}) {
    const raw = withLabCrdMirror({ ...readStackFile(path.join(ROOT, "stacks", `Pulumi.${stack}.yaml`)), ...overrides });
    const config: Record<string, string> = {};
    const secretKeys: string[] = [];
    for (const [k, v] of Object.entries(raw)) {
        const key = `ovn-kubernetes:${k}`;
        if ((SECRET_KEYS as readonly string[]).includes(k)) {
            config[key] = TEST_SECRETS[k];
            secretKeys.push(key);
        } else config[key] = typeof v === "string" ? v : JSON.stringify(v);
    }
    const resources: Recorded[] = [];
    const parents = new Map<string, string>();
    const secretOutputs = new Map<string, string[]>();
    const registrations = new Map<string, NonNullable<Recorded["registration"]>>();
    await pulumi.runtime.setMocks(
        {
            async newResource(args: pulumi.runtime.MockResourceArgs) {
                const registration = registrations.get(`${args.type}::${args.name}`);
                resources.push({
                    type: args.type,
                    name: args.name,
                    inputs: args.inputs,
                    parent: parents.get(args.name),
                    secretOutputs: secretOutputs.get(args.name),
                    registration,
                });
                return { id: `${args.name}-id`, state: await programState(args) };
            },
            call: (args: pulumi.runtime.MockCallArgs) => args.inputs,
        },
        "ovn-kubernetes",
        stack,
        false,
    );
    pulumi.runtime.setAllConfig(config, secretKeys);
    // The mocks' newResource does not see parents; the mock monitor's requests do (parent URN).
    const monitor = pulumi.runtime.getMonitor() as any;
    const register = monitor.registerResource.bind(monitor);
    monitor.registerResource = (req: any, cb: unknown) => {
        if (req.getParent()) parents.set(req.getName(), req.getParent().split("::").pop());
        secretOutputs.set(req.getName(), req.getAdditionalsecretoutputsList());
        const propertyDependencies: Record<string, string[]> = {};
        req.getPropertydependenciesMap().forEach((deps: any, key: string) => (propertyDependencies[key] = deps.getUrnsList()));
        const position = req.getSourceposition?.();
        const registration = {
            custom: req.getCustom(),
            urn: "",
            additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
            replaceOnChanges: req.getReplaceonchangesList(),
            sourcePosition: position ? `${position.getUri()}#${position.getLine()},${position.getColumn()}` : undefined,
            parentUrn: req.getParent(),
            dependencies: req.getDependenciesList(),
            propertyDependencies,
            provider: req.getProvider(),
        };
        registrations.set(`${req.getType()}::${req.getName()}`, registration);
        return register(req, (err: unknown, resp: any) => {
            if (resp) registration.urn = resp.getUrn();
            (cb as (e: unknown, r: unknown) => void)(err, resp);
        });
    };
    const registerOutputs = monitor.registerResourceOutputs.bind(monitor);
    monitor.registerResourceOutputs = (req: any, cb: unknown) => {
        const registration = [...registrations.values()].find((r) => r.urn === req.getUrn());
        if (registration) registration.outputs = req.getOutputs()?.toJavaScript() ?? {};
        return registerOutputs(req, cb);
    };
    // The project's program, as the offline engine runs it (../offline/runProgram.ts).
    const program: ProgramOutputs = await import(path.join(ROOT, "index"));
    // Registrations go out asynchronously (a dynamic resource first serializes its provider):
    // wait until the SDK's RPC queue has drained, so every registration has been recorded.
    await (pulumi.runtime as unknown as { waitForRPCs(): Promise<void> }).waitForRPCs(); // the drain `disconnect` uses; untyped (@internal)
    return { program, resources };
}

/** Resolves an Output's value and whether it is secret. */
export function settle<T>(o: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
    return new Promise((resolve) => {
        const out = o as any;
        Promise.all([out.promise(), out.isSecret]).then(([value, secret]: [T, boolean]) => resolve({ value, secret }));
    });
}

/** Replaces every secret-wrapped value (as the engine receives them) by "[secret]". */
export function dropSecrets(v: unknown): unknown {
    if (isSecretValue(v)) return "[secret]";
    if (Array.isArray(v)) return v.map(dropSecrets);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, dropSecrets(x)]));
    return v;
}
