// VTEP gateways (role `vtep`, ../../../docs/vtep.md): Pulumi mode only, a host of their own, and
// bindings that ovs-vtep and OVN can carry: each to a node's logical switch, one per port and VLAN.
import { isK8sNode, isVtep } from "../../model/nodes";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

/** Relations: role and settings together, the mode, the host's other roles and OS, every binding. */
export function vtepProblems(cfg: StackConfigInput, ovnkubeMode: boolean, add: Add): void {
    const switches = new Set(cfg.nodes.filter(isK8sNode).map((n) => n.name));
    const physicalSwitches = new Map<string, number>();
    cfg.nodes.forEach((n, i) => {
        const p = `nodes[${i}]`;
        if (!isVtep(n)) {
            if (n.vtep) add(`${p}.vtep`, `set, but the node lacks the role "vtep"`);
            return;
        }
        if (ovnkubeMode)
            add(
                `${p}.roles`,
                `a VTEP gateway needs every chassis to list vxlan in ovn-encap-type, which ovnkube-node overwrites with geneve alone (default_node_network_controller.go); VTEP gateways are Pulumi mode only: set kubernetes.enabled: false, or remove the role "vtep"`,
            );
        if (n.roles.length > 1)
            add(
                `${p}.roles`,
                `"vtep" must be the host's only role: ovs-vtep serves the VTEP database from the host's own Open vSwitch, which a chassis or central also uses`,
            );
        if ((n.os ?? "debian") !== "debian")
            add(`${p}.os`, `a VTEP gateway needs Debian's openvswitch-vtep (ovs-vtep) and ovn-controller-vtep packages; use a Debian host`);
        if (cfg.ovnTransport?.protocol === "ssl")
            add(
                `${p}.roles`,
                `ovn-controller-vtep reaches the SB over tcp only here (its SSL keys are not configured); set ovnTransport.protocol: tcp`,
            );
        if (!n.vtep) {
            add(`${p}.vtep`, `required for the role "vtep": the physical switch's ports and their VLAN bindings`);
            return;
        }
        const ps = n.vtep.physicalSwitch ?? n.name;
        const other = physicalSwitches.get(ps);
        if (other !== undefined) add(`${p}.vtep.physicalSwitch`, `"${ps}" is already the physical switch of nodes[${other}]`);
        else physicalSwitches.set(ps, i);
        if (ps.length > 15) add(`${p}.vtep.physicalSwitch`, `"${ps}" names the switch's OVS bridge and must be at most 15 characters`);
        const ports = new Map<string, number>();
        n.vtep.ports.forEach((port, j) => {
            const pp = `${p}.vtep.ports[${j}]`;
            if (ports.has(port.name)) add(`${pp}.name`, `"${port.name}" is already ports[${ports.get(port.name)}]`);
            else ports.set(port.name, j);
            if (port.name === n.tunnelInterface)
                add(`${pp}.name`, `"${port.name}" is the tunnel interface; a VTEP port faces physical servers on a NIC of its own`);
            const vlans = new Map<number, number>();
            port.bindings.forEach((b, k) => {
                const bp = `${pp}.bindings[${k}]`;
                if (vlans.has(b.vlan))
                    add(`${bp}.vlan`, `VLAN ${b.vlan} of port ${port.name} is already bound by bindings[${vlans.get(b.vlan)}]`);
                else vlans.set(b.vlan, k);
                if (!switches.has(b.logicalSwitch))
                    add(
                        `${bp}.logicalSwitch`,
                        `"${b.logicalSwitch}" is no logical switch of the stack; name a node with the role "master" or "node" (${[...switches].join(", ")})`,
                    );
            });
        });
    });
}
