// Three bare local hosts with the stack file of a chosen number of centrals, for the clustered
// central's lab tests, and their removal (pooled NB and SSH sessions of this process included).
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { readStackFile } from "../../../components/config/stackFile";
import { validateConfig } from "../../../components/plan/validate";
import { buildClusterModel } from "../../../components/model/clusterModel";
import type { ClusterModel } from "../../../components/model/types";
import { closeNbSessions } from "../../../components/nb/transact/session";
import { closeSshPool } from "../../../components/ssh/pool";
import { down, LOCAL_LAB_PASSPHRASE, up, writeLocalStack, type LocalCluster } from "../../../lab/localcluster";
import type { OfflineOptions } from "../../../lab/offline/api";

export interface HaLab {
    cluster: LocalCluster;
    work: string;
    options: OfflineOptions;
    /** Rewrites the stack file with this many centrals and returns its model. */
    restack(centrals: number): ClusterModel;
    /** The model of the stack file as it is now. */
    model(): ClusterModel;
}

export async function haLab(id: string, centrals: number): Promise<HaLab> {
    await down(id);
    const cluster = await up({ id, hosts: 3 });
    const work = fs.mkdtempSync(path.join(tmpdir(), `${id}-`));
    const stack = `local-${id}`;
    const stackFile = path.join(work, `Pulumi.${stack}.yaml`);
    const model = () => buildClusterModel(validateConfig(readStackFile(stackFile)));
    const restack = (n: number) => {
        writeLocalStack(cluster, stackFile, { passphrase: LOCAL_LAB_PASSPHRASE, centrals: n });
        return model();
    };
    restack(centrals);
    return { cluster, work, options: { stack, stackFile, localDir: work, passphrase: LOCAL_LAB_PASSPHRASE }, restack, model };
}

export async function removeHaLab(id: string, lab: HaLab | undefined): Promise<void> {
    closeNbSessions();
    closeSshPool();
    await down(id);
    if (lab) fs.rmSync(lab.work, { recursive: true, force: true });
}
