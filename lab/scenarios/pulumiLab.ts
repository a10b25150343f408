// A Pulumi-mode lab: bare local hosts (Debian 12 by default; Debian 13 hosts have roots of their own), the stack file written for them in a fresh work
// directory, its validated model and the offline engine's options for stack `local-<id>`.
// `close` takes the hosts down and removes the work directory.
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { readStackFile, validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { buildClusterModel, type ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { down, LOCAL_LAB_PASSPHRASE, up, writeLocalStack, type HostOs, type LocalCluster } from "../localcluster";
import type { OfflineOptions } from "../offline/api";

export interface PulumiLab {
    cluster: LocalCluster;
    model: ClusterModel;
    /** Stack file, state and anything else the test writes. */
    work: string;
    options: OfflineOptions;
    close(): Promise<void>;
}

export async function bringUpPulumiLab(id: string, hosts = 3, os: HostOs = "debian12"): Promise<PulumiLab> {
    await down(id);
    const cluster = await up({ id, hosts, os });
    const work = fs.mkdtempSync(path.join(tmpdir(), `${id}-`));
    const stack = `local-${id}`;
    const stackFile = writeLocalStack(cluster, path.join(work, `Pulumi.${stack}.yaml`), { passphrase: LOCAL_LAB_PASSPHRASE });
    return {
        cluster,
        model: buildClusterModel(validateConfig(readStackFile(stackFile))),
        work,
        options: { stack, stackFile, localDir: work, passphrase: LOCAL_LAB_PASSPHRASE },
        close: async () => {
            await down(id);
            fs.rmSync(work, { recursive: true, force: true });
        },
    };
}
