// The configuration the engine gives this package's dynamic providers: the whole stack config,
// namespaced and decrypted (pulumi/pulumi#17229; the provider host hands it to `configure`,
// #17697), as any Pulumi provider takes its credentials from its configuration. Credentials read
// here live in the stack's config only, never in a resource's state: an SSH key rotated in the
// config is what the next refresh or delete logs in with.
import * as pulumi from "@pulumi/pulumi";

/**
 * Kept on globalThis, not in a module variable: state written before the provider stubs runs a
 * serialized copy of this code, which has no `configure` of its own and would see an empty copy
 * of the variable; the host configures the installed package's providers, and both read this.
 */
function store(): { config?: pulumi.dynamic.Config } {
    const holder = globalThis as unknown as Record<string, { config?: pulumi.dynamic.Config } | undefined>;
    return (holder.__ovnKubernetesAsCode_providerConfig ??= {});
}

/** What a provider's `configure` does with the engine's request. */
export async function rememberProviderConfig(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    store().config = req.config;
}

/** A config value by its full key (`<namespace>:<name>`); undefined when not configured or not given. */
export function providerConfigValue(fullKey: string): string | undefined {
    const value = store().config?.get(fullKey);
    return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * How a package resource that logs in gets its SSH key: carried as a secret input (a program that
 * passes the key), or named by its stack config key, which the provider reads from its
 * configuration, so that the state holds no key.
 */
export type SshKeyInput = { privateKey: pulumi.Input<string> } | { privateKeyConfig: string };

/** The key of resolved inputs of SshKeyInput; the error names the config key and how to set it. */
export function sshKeyOf(inputs: { privateKey?: string; privateKeyConfig?: string }): string {
    if (inputs.privateKey) return inputs.privateKey;
    const configured = inputs.privateKeyConfig === undefined ? undefined : providerConfigValue(inputs.privateKeyConfig);
    if (configured !== undefined) return configured;
    const key = inputs.privateKeyConfig ?? "<project>:sshPrivateKey";
    throw new Error(
        `privateKeyConfig: the provider's configuration has no ${key}, the SSH key this resource logs in with (pulumi config set --secret ${key} < key-file)`,
    );
}

/** Resource properties and options for an SshKeyInput: a carried key stays secret in inputs and outputs. */
export function sshKeyProps(key: SshKeyInput): { props: Record<string, unknown>; secretOutputs: string[] } {
    if ("privateKey" in key) return { props: { privateKey: pulumi.secret(key.privateKey) }, secretOutputs: ["privateKey"] };
    return { props: { privateKeyConfig: key.privateKeyConfig }, secretOutputs: [] };
}
