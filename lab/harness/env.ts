// A real NB ovsdb-server with its SB and ovn-northd, and a real sshd on loopback, the dev stack's cluster model, and the
// NB connection input that points the resources at them: as the program builds it (the SSH key
// named by its stack config key, which the provider host is configured with), or carrying the key
// (state written before, and in-process calls, which have no provider configuration).
import { readStackFile, validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { buildClusterModel, type ClusterModel, type SshTarget } from "@ovn-kubernetes-as-code/cluster/model";
import { closeNbSessions } from "@ovn-kubernetes-as-code/cluster/nb";
import { closeOvsdbPool, closeSshPool } from "@ovn-kubernetes-as-code/cluster/ssh";
import { startNbServer, type NbServer } from "./nbServer";
import { startNorthd, type Northd } from "./northd";
import { startSshd, type TestSshd } from "./sshd";
import { PROJECT_ROOT } from "./providerHost";

export const OWNER = "ovn-kubernetes/nbtest";
/** The stack config key of the SSH key, as the program names it for the stack `nbtest`. */
export const KEY_CONFIG = "ovn-kubernetes:sshPrivateKey";
/** The gateway's chassis and NIC as the host side would report them. */
export const GATEWAY_HOST = { systemId: "3f1e4d5c-0b6a-4e8f-9a7d-2c1b0e9f8a76", macAddress: "52:54:00:8a:4a:8a" };

export function devModel(): ClusterModel {
    return buildClusterModel(validateConfig(readStackFile(`${PROJECT_ROOT}/stacks/Pulumi.dev.yaml`)));
}

export interface NbEnv {
    nb: NbServer;
    /** SB and ovn-northd beside NB: a write is awaited until hv_cfg catches up, as on a central. */
    northd: Northd;
    sshd: TestSshd;
    /** Carrying the key. */
    connection(overrides?: Partial<SshTarget>): { ssh: SshTarget; privateKey: string; socket: string };
    /** Naming KEY_CONFIG, as the program does; the provider host needs `providerConfig`. */
    configured(overrides?: Partial<SshTarget>): { ssh: SshTarget; privateKeyConfig: string; socket: string };
    /** The stack config the engine gives the provider host. */
    providerConfig: Record<string, string>;
    cleanup(): Promise<void>;
}

export async function startEnv(): Promise<NbEnv> {
    const [nb, sshd] = await Promise.all([startNbServer(), startSshd()]);
    const northd = await startNorthd(nb);
    return {
        nb,
        northd,
        sshd,
        connection: (overrides = {}) => ({ ssh: sshd.target(overrides), privateKey: sshd.privateKey, socket: nb.socket }),
        configured: (overrides = {}) => ({ ssh: sshd.target(overrides), privateKeyConfig: KEY_CONFIG, socket: nb.socket }),
        providerConfig: { [KEY_CONFIG]: sshd.privateKey },
        cleanup: async () => {
            closeNbSessions();
            closeOvsdbPool();
            closeSshPool();
            await northd.stop();
            await Promise.all([nb.cleanup(), sshd.cleanup()]);
        },
    };
}

/** ovn-nbctl `--bare --columns=<column> find <table> <conditions…>`, one value per row. */
export async function findColumn(nb: NbServer, table: string, column: string, ...conditions: string[]): Promise<string[]> {
    const out = await nb.nbctl("--bare", `--columns=${column}`, "find", table, ...conditions);
    return out
        .split("\n\n")
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
}
