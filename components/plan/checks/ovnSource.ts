// Where OVN runs (ovnkube.ovnSource) and the OVN the image carries (ovnkube.imageOvnVersion): with
// the image each zone's OVN runs in its node's ovnkube-node pod (interconnect), or the centrals'
// in ovnkube-db pods on them (centralized); the hosts then install Open vSwitch only.
import { DEFAULT_OVN_SOURCE, KNOWN_IMAGE_OVN_LINES, minimumOvsFor } from "../../config/ovnSource";
import { DEFAULT_OVNKUBE_VERSION, releaseOf } from "../../config/releases";
import type { StackConfigInput } from "../../config/types";
import { compareVersions } from "../../values";
import { isK8sNode } from "../../model/nodes";

type Add = (path: string, message: string) => void;

export const OVN_SOURCE_PATH = "ovnkube.ovnSource";
const IMAGE_OVN_PATH = "ovnkube.imageOvnVersion";

export function ovnSourceProblems(cfg: StackConfigInput, ovnkubeMode: boolean, interconnect: boolean, add: Add): void {
    const ovnkube = cfg.ovnkube ?? {};
    const image = (ovnkube.ovnSource ?? DEFAULT_OVN_SOURCE) === "image";
    if (!image) {
        if (ovnkube.imageOvnVersion !== undefined) add(IMAGE_OVN_PATH, `applies to ${OVN_SOURCE_PATH}: image only; remove it`);
        return;
    }
    if (!ovnkubeMode) {
        add(
            OVN_SOURCE_PATH,
            "image runs OVN in ovnkube's pods, and kubernetes.enabled is false: Pulumi mode writes the topology into the OVN the hosts run; use packages",
        );
        return;
    }
    if (!interconnect) {
        // The centrals' databases run as pods (DaemonSet ovnkube-db), so on Kubernetes nodes, listening in plain TCP.
        cfg.nodes.forEach((n, i) => {
            if (n.roles.includes("central") && !isK8sNode(n))
                add(
                    `nodes[${i}].roles`,
                    `${n.name} is a central and no Kubernetes node: with ${OVN_SOURCE_PATH} image its NB and SB run in a pod on it; add the role master or node, or use packages`,
                );
        });
        if (cfg.ovnTransport?.protocol === "ssl")
            add(
                "ovnTransport.protocol",
                `ssl keeps the centrals' keys on the hosts, which the ovnkube-db pods of ${OVN_SOURCE_PATH} image do not read; use tcp, or packages`,
            );
    }
    if (ovnkube.ipsec === true)
        add(
            "ovnkube.ipsec",
            `the project writes NB_Global ipsec with the host's ovn-nbctl, and with ${OVN_SOURCE_PATH} image the hosts have no OVN; use packages, or remove it`,
        );
    if (cfg.packages?.ovnVersion !== undefined)
        add("packages.ovnVersion", `pins the hosts' OVN, and with ${OVN_SOURCE_PATH} image the hosts install none; remove it`);
    const release = releaseOf(ovnkube.version ?? DEFAULT_OVNKUBE_VERSION);
    if (ovnkube.image !== undefined && ovnkube.image !== release.image && ovnkube.imageOvnVersion === undefined) {
        add(
            IMAGE_OVN_PATH,
            `is required with ${OVN_SOURCE_PATH} image and an image other than the release's: the project checks each host's Open vSwitch against the OVN ${ovnkube.image} carries, which it cannot read; set it (e.g. 26.03)`,
        );
        return;
    }
    const ovn = ovnkube.imageOvnVersion ?? release.imageOvn;
    if (compareVersions(ovn, release.ovnRelease) < 0)
        add(
            IMAGE_OVN_PATH,
            `is ${ovn}, older than OVN ${release.ovnRelease}, whose schemas ovn-kubernetes ${release.version} needs; use an image with OVN ${release.ovnRelease} or newer`,
        );
    else if (minimumOvsFor(ovn) === undefined)
        add(
            IMAGE_OVN_PATH,
            `is ${ovn}, an OVN line whose Open vSwitch needs the project does not know (it knows ${KNOWN_IMAGE_OVN_LINES.join(", ")}); use an image with one of them`,
        );
}
