// IPsec between the nodes (ovnkube.ipsec) where it is set: the zones the project starts carry
// NB_Global ipsec, and every chassis' tunnels pass the kernel's IPsec (docs/features.md#ipsec).
import { isChassis } from "../../model/nodes";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

export const IPSEC_PATH = "ovnkube.ipsec";

/** Relations: IPsec needs ovnkube mode's interconnect zones and the kernel datapath on every chassis. */
export function ipsecProblems(cfg: StackConfigInput, ovnkubeMode: boolean, interconnect: boolean, add: Add): void {
    if (cfg.ovnkube?.ipsec !== true) return;
    if (!ovnkubeMode) {
        add(IPSEC_PATH, "applies to ovnkube mode only, and kubernetes.enabled is false; remove it");
        return;
    }
    if (!interconnect)
        add(
            IPSEC_PATH,
            "needs ovnkube.architecture interconnect: the project writes NB_Global ipsec in the zones it starts, and a central's NB is not one of them; use interconnect, or remove it",
        );
    // ovs-monitor-ipsec installs xfrm policies: the kernel applies them to the packets its own
    // stack sends, and the userspace datapath puts its tunnel packets on the wire past it.
    const past = (names: string[]) =>
        `netdev: the userspace datapath of ${names.join(", ")} sends tunnel packets past the kernel's IPsec, which ovs-monitor-ipsec configures, so they would leave unencrypted; use system, or remove ${IPSEC_PATH}`;
    const inheriting: string[] = [];
    cfg.nodes.forEach((n, i) => {
        if (!isChassis(n)) return;
        if (n.datapathType === "netdev") add(`nodes[${i}].datapathType`, past([n.name]));
        else if (n.datapathType === undefined && cfg.datapathType === "netdev") inheriting.push(n.name);
    });
    if (inheriting.length > 0) add("datapathType", past(inheriting));
}
