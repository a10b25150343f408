// A local cluster with its Kubernetes control plane, for tests that need a real API server:
// whatever an aborted earlier run of the same id left is removed first, and `stop` ends every
// process of both.
import { KubeClient } from "../../lab/kubeclient";
import { down, up, type LocalCluster } from "../../lab/localcluster";
import { startControlPlane, stopControlPlane, type ControlPlane } from "../../lab/localcluster/kube";

/** The service CIDR of the local stacks (localcluster/stackFile.ts). */
export const SERVICE_SUBNET = "172.30.0.0/16";

export interface KubeLab {
    cluster: LocalCluster;
    controlPlane: ControlPlane;
    /** cluster-admin client; closed by stop(). */
    admin: KubeClient;
    stop(): Promise<void>;
}

export async function startKubeLab(id: string, hosts = 1): Promise<KubeLab> {
    await down(id);
    const t0 = Date.now();
    const cluster = await up({ id, hosts });
    const t1 = Date.now();
    const controlPlane = await startControlPlane(cluster, { serviceSubnets: [SERVICE_SUBNET], log: () => undefined });
    console.log(`local cluster ${id} up in ${t1 - t0} ms, control plane ready in ${Date.now() - t1} ms`);
    const admin = KubeClient.fromKubeconfig(controlPlane.adminKubeconfig.content);
    return {
        cluster,
        controlPlane,
        admin,
        stop: async () => {
            admin.close();
            // The control plane first, then the hosts: each waits for its own links to go.
            await stopControlPlane(id);
            await down(id);
        },
    };
}
