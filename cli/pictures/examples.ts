// The example stacks the docs' pictures are drawn from (`npm run docs:pictures`), shared with the
// pictures' tests: the checked-in stacks, two generated 50-node stacks (Pulumi mode with every
// fifth node a gateway; ovnkube mode with interconnect, a zone per node), and a live reading of
// the staging stack with two differences from its plan, to show how status marks them.
import * as path from "node:path";
import { readStackFile } from "@ovn-kubernetes-as-code/cluster/config";
import { validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { buildClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import type { ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { NO_ROW } from "@ovn-kubernetes-as-code/cluster/nb";
import { plannedNbRows } from "@ovn-kubernetes-as-code/cluster/status";
import type { NbDifferences } from "@ovn-kubernetes-as-code/cluster/status";

export const ROOT = path.resolve(__dirname, "../..");
export const LARGE = 50;

export const stackFile = (stack: string) => readStackFile(path.join(ROOT, "stacks", `Pulumi.${stack}.yaml`)) as Record<string, any>;
export const modelOf = (raw: Record<string, unknown>): ClusterModel => buildClusterModel(validateConfig(raw));

const workers = () => Array.from({ length: LARGE - 1 }, (_, i) => `worker-${String(i + 1).padStart(2, "0")}`);

/** A generated stack is a lab: its hosts have no keys of their own to pin (one key on every host would be a copied key). */
function asLab(base: Record<string, any>): Record<string, any> {
    return { ...base, lab: true, ssh: { ...base.ssh, insecureIgnoreHostKey: true } };
}

export function largePulumiStack(): Record<string, any> {
    const base = asLab(stackFile("dev"));
    const gateway = (i: number) => ({
        mode: "dedicated",
        interface: "eth1",
        physicalIp: `10.33.${i}.2/24`,
        defaultGateway: `10.33.${i}.1`,
    });
    base.nodes = [
        { name: "master", address: "10.0.0.1", roles: ["central", "master"] },
        ...workers().map((name, i) => ({
            name,
            address: `10.0.1.${10 + i}`,
            ...(i % 5 === 4 ? { roles: ["node", "gateway"], gateway: gateway(i) } : { roles: ["node"] }),
        })),
    ];
    return base;
}

export function largeInterconnectStack(): Record<string, any> {
    const base = asLab(stackFile("staging"));
    base.nodes = [
        { name: "master-0", address: "10.20.0.10", roles: ["master"] },
        ...workers().map((name, i) => ({ name, address: `10.20.1.${10 + i}`, roles: ["node"] })),
    ];
    return base;
}

/** A live reading of an interconnect model: one switch's subnet changed, one gateway router's SNAT gone. */
export function exampleDifferences(model: ClusterModel, changedSubnet: string, switchNode: string, natNode: string): NbDifferences[] {
    return plannedNbRows(model).map((nb) => {
        const differences = Object.entries(nb.rows).flatMap(([row, columns]) =>
            Object.entries(columns).flatMap(([column, expected]) => {
                if (nb.zone === switchNode && row === `Logical_Switch ${switchNode}`)
                    return [{ row, column, expected, observed: changedSubnet }];
                if (nb.zone === natNode && row.startsWith(`NAT GR_${natNode} `)) return [{ row, column, expected, observed: NO_ROW }];
                return [];
            }),
        );
        return { host: nb.host, ...(nb.zone ? { zone: nb.zone } : {}), differences };
    });
}
