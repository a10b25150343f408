// The GatewayRouter kind: inputs `gateway` (the NB part of GatewayModel), `systemId` of the
// node's chassis and `macAddress` of its NIC (both known only once the host is set up).
import { contains, containsIp, networkOf, parseNetwork, PATTERNS } from "../../values";
import { gatewayRouterRows, type GatewayRouterNb } from "../groups/gatewayRouter";
import { UNKNOWN } from "../check";
import { gatewayGroup } from "../tags";
import { ADDRESS_KEYS, copyPresent, type CommonInputs, type NbKind } from "./common";

export interface GatewayRouterInputs extends CommonInputs {
    gateway: GatewayRouterNb;
    systemId: string;
    macAddress: string;
}

const NAMES = ["router", "joinPort", "joinPeerPort", "externalSwitch", "externalPort", "externalPeerPort", "uplinkPort", "physnet", "clusterRouter"];

export const gatewayRouterKind: NbKind<GatewayRouterInputs> = {
    type: "GatewayRouter",
    properties: ["gateway", "systemId", "macAddress"],
    replaceOn: ["owner", "nb.ssh.host", "nb.ssh.port", "nb.socket", "gateway.node", ...NAMES.filter((n) => n !== "physnet").map((n) => `gateway.${n}`)],
    tables: ["Logical_Router", "Logical_Switch", "Logical_Router_Port", "Logical_Switch_Port", "Logical_Router_Static_Route", "NAT", "Load_Balancer"],
    normalize: (raw) => {
        const out: Record<string, unknown> = copyPresent(raw, ["systemId", "macAddress"]);
        if (raw.gateway === undefined) return out;
        const gateway = copyPresent(raw.gateway, ["node", ...NAMES, "join", "clusterRouterJoinIp", "physical", "defaultGateway", "rampoutSubnets", "clusterSubnet"]);
        if (typeof gateway === "object") {
            if (gateway.join !== undefined) gateway.join = copyPresent(gateway.join, ADDRESS_KEYS);
            if (gateway.physical !== undefined) gateway.physical = copyPresent(gateway.physical, ["ip", "cidr"]);
            gateway.rampoutSubnets ??= [];
        }
        out.gateway = gateway;
        return out;
    },
    validate: (c, inputs) => {
        c.text("gateway.node", "nodeName");
        for (const name of NAMES) c.text(`gateway.${name}`, "ovnName");
        c.text("systemId", "systemId");
        c.unicastMac("macAddress");
        c.address("gateway.join");
        c.address("gateway.physical", { mac: false });
        const clusterSubnet = c.network("gateway.clusterSubnet");
        c.text("gateway.clusterRouterJoinIp", "ipv4");
        const gw = c.text("gateway.defaultGateway", "ipv4");
        const physical = c.present("gateway.physical.cidr");
        // The next hop must be on the physical network, or the default route can never resolve.
        if (gw !== undefined && typeof physical === "string" && PATTERNS.cidr.re.test(physical) && !containsIp(networkOf(physical), gw)) {
            c.fail("gateway.defaultGateway", `must lie in the physical network ${networkOf(physical).text}, got ${gw}`);
        }
        const rampout = inputs.gateway?.rampoutSubnets;
        if (rampout !== undefined && rampout !== UNKNOWN) {
            if (!Array.isArray(rampout)) c.fail("gateway.rampoutSubnets", "must be a list of CIDRs");
            else
                rampout.forEach((_, i) => {
                    const subnet = c.network(`gateway.rampoutSubnets.${i}`);
                    if (subnet && clusterSubnet && !contains(parseNetwork(clusterSubnet), parseNetwork(subnet))) {
                        c.fail(`gateway.rampoutSubnets.${i}`, `must lie in the cluster subnet ${clusterSubnet}, got ${subnet}`);
                    }
                });
        }
    },
    group: (inputs) => gatewayGroup(inputs.gateway.node),
    rows: (inputs) => gatewayRouterRows(inputs.owner, inputs.gateway, { systemId: inputs.systemId, macAddress: inputs.macAddress }),
};
