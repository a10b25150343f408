// A script bundle's provider against this machine over SSH: an sshd on loopback, the provider's
// configuration naming the key's config key, and the bundle's inputs for it. Registers the
// before and after hooks of the calling file.
import { after, before } from "node:test";
import { rememberProviderConfig } from "../../components/dynamic/providerConfig";
import { scriptBundle } from "../../components/hosts/scripts/bundle";
import { closeSshPool } from "../../components/ssh/pool";
import { startSshd, type TestSshd } from "../../lab/harness/sshd";

export const KEY_CONFIG = "ovn-kubernetes:sshPrivateKey";

export interface BundleOverSsh {
    sshd: () => TestSshd;
    /** The bundle's inputs for this machine, with `more` (the host reads under test). */
    inputs: <T extends object>(
        more: T,
    ) => T & { ssh: ReturnType<TestSshd["target"]> & { hostKey: string }; privateKeyConfig: string; digest: string };
}

export function bundleOverSsh(): BundleOverSsh {
    let sshd: TestSshd;
    before(async () => {
        sshd = await startSshd();
        await rememberProviderConfig({ config: { get: (k: string) => (k === KEY_CONFIG ? sshd.privateKey : undefined) } } as never);
    });
    after(async () => {
        closeSshPool();
        await sshd?.cleanup();
    });
    return {
        sshd: () => sshd,
        inputs: (more) => ({
            ssh: { ...sshd.target(), hostKey: sshd.hostKeyLine },
            privateKeyConfig: KEY_CONFIG,
            digest: scriptBundle().digest,
            ...more,
        }),
    };
}
