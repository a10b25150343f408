// The ClusterRouter kind: inputs `router` (the NB part of ClusterRouterModel).
import { clusterRouterRows, type ClusterRouterNb } from "../groups/clusterRouter";
import { clusterGroup } from "../tags";
import { ADDRESS_KEYS, copyPresent, type CommonInputs, type NbKind } from "./common";

export interface ClusterRouterInputs extends CommonInputs {
    router: ClusterRouterNb;
}

export const clusterRouterKind: NbKind<ClusterRouterInputs> = {
    type: "ClusterRouter",
    properties: ["router"],
    replaceOn: ["owner", "nb.ssh.host", "nb.ssh.port", "nb.socket", "router.name", "router.joinSwitch", "router.joinPort", "router.joinPeerPort"],
    tables: ["Logical_Router", "Logical_Switch", "Logical_Router_Port", "Logical_Switch_Port", "Load_Balancer"],
    normalize: (raw) => {
        if (raw.router === undefined) return {};
        const router = copyPresent(raw.router, ["name", "joinSwitch", "joinPort", "joinPeerPort", "joinAddress"]);
        if (typeof router === "object" && router.joinAddress !== undefined) router.joinAddress = copyPresent(router.joinAddress, ADDRESS_KEYS);
        return { router };
    },
    validate: (c) => {
        for (const name of ["name", "joinSwitch", "joinPort", "joinPeerPort"]) c.text(`router.${name}`, "ovnName");
        c.address("router.joinAddress");
    },
    group: (inputs) => clusterGroup(inputs.router.name),
    rows: (inputs) => clusterRouterRows(inputs.owner, inputs.router),
};
