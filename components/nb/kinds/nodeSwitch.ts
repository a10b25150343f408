// The NodeSwitch kind: inputs `network` (the NB part of NodeNetworkModel).
import { nodeSwitchRows, type NodeSwitchNb } from "../groups/nodeSwitch";
import { nodeGroup } from "../tags";
import { ADDRESS_KEYS, copyPresent, type CommonInputs, type NbKind } from "./common";

export interface NodeSwitchInputs extends CommonInputs {
    network: NodeSwitchNb;
}

export const nodeSwitchKind: NbKind<NodeSwitchInputs> = {
    type: "NodeSwitch",
    properties: ["network"],
    // Port names are unique indexes in NB and the node name is the group id: a rename is another
    // set of rows, and the old ones must go first or the new inserts collide with them.
    replaceOn: [
        "owner",
        "nb.ssh.host",
        "nb.ssh.port",
        "nb.socket",
        "network.node",
        "network.switchName",
        "network.routerPort",
        "network.routerPeerPort",
        "network.mgmtPort",
        "network.clusterRouter",
    ],
    tables: ["Logical_Switch", "Logical_Router_Port", "Logical_Switch_Port"],
    normalize: (raw) => {
        if (raw.network === undefined) return {};
        const network = copyPresent(raw.network, ["node", "switchName", "subnet", "routerPort", "routerPeerPort", "router", "mgmtPort", "mgmt", "clusterRouter"]);
        if (typeof network === "object") {
            if (network.router !== undefined) network.router = copyPresent(network.router, ADDRESS_KEYS);
            if (network.mgmt !== undefined) network.mgmt = copyPresent(network.mgmt, ADDRESS_KEYS);
        }
        return { network };
    },
    validate: (c) => {
        c.text("network.node", "nodeName");
        for (const name of ["switchName", "routerPort", "routerPeerPort", "mgmtPort", "clusterRouter"]) c.text(`network.${name}`, "ovnName");
        const subnet = c.network("network.subnet");
        c.address("network.router", { within: subnet });
        c.address("network.mgmt", { within: subnet });
        const [r, m] = [c.present("network.router.ip"), c.present("network.mgmt.ip")];
        if (r !== undefined && r === m) c.fail("network.mgmt.ip", `must differ from network.router.ip (${String(r)})`);
    },
    group: (inputs) => nodeGroup(inputs.network.node),
    rows: (inputs) => nodeSwitchRows(inputs.owner, inputs.network),
};
