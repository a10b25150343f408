// What the offline engine asks of each kind of resource: the provider protocol reduced to what
// the engine needs (check → diff → create / update / delete, read for refresh). Inputs and outputs
// are property bags with secrets still wrapped; a handler unwraps only what it must use.
import type { Registration } from "../monitor";
import type { HostKeyPolicy } from "../ssh";
import type { StateResource } from "../state";
import type { Props } from "../values";
import type { Profile } from "../profile";
import type { PropertyDiffKind } from "../engineDiff";

export interface DiffResult {
    changes: boolean;
    /** Input names that differ (names only: values may be secret). */
    keys: string[];
    /** Of those, the ones that force a replacement. */
    replaceKeys: string[];
    /** The provider asks to delete the old resource before creating its replacement. */
    deleteBeforeReplace: boolean;
    /** The top-level names the engine knows changed, which replaceOnChanges reads (default: keys). */
    changedKeys?: string[];
    /** By property path, when the engine has one (./engineDiff). */
    detailedDiff?: Record<string, PropertyDiffKind>;
}

export interface Created {
    id?: string;
    outputs: Props;
}

export interface ResourceHandler {
    /** Normalises and validates the inputs (a provider's Check); runs in previews too. */
    check(reg: Registration, old: StateResource | undefined): Promise<Props>;
    diff(old: StateResource, inputs: Props, reg: Registration): Promise<DiffResult>;
    create(reg: Registration, inputs: Props): Promise<Created>;
    update(old: StateResource, inputs: Props, reg: Registration): Promise<Props>;
    delete(old: StateResource): Promise<void>;
    /** Live outputs for refresh, and inputs when the provider returned them; undefined when the resource no longer exists. */
    read(old: StateResource): Promise<{ id?: string; outputs: Props; inputs?: Props } | undefined>;
}

/** What handlers share within one operation. */
export interface HandlerContext {
    project: string;
    stack: string;
    projectDir: string;
    manifestsDir: string;
    /** The stack's config as PULUMI_CONFIG carries it (decrypted), for dynamic providers' Configure. */
    config: Record<string, string>;
    hostKeys: HostKeyPolicy;
    /** Where the operation's time goes; the provider host's start is one milestone. */
    profile?: Profile;
}

export function inputDiff(keys: string[], replaceOn: string[], deleteBeforeReplace = false): DiffResult {
    return { changes: keys.length > 0, keys, replaceKeys: keys.filter((k) => replaceOn.includes(k)), deleteBeforeReplace };
}
