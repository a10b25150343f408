// Where OVN runs (ovnkube.ovnSource) and the OVN the image carries (ovnkube.imageOvnVersion):
// image mode is interconnect's, where each zone's OVN is its own node's and fits in that node's
// ovnkube-node pod; the hosts then install Open vSwitch only.
import { DEFAULT_OVN_SOURCE, KNOWN_IMAGE_OVN_LINES, minimumOvsFor } from "../../config/ovnSource";
import { DEFAULT_OVNKUBE_VERSION, releaseOf } from "../../config/releases";
import type { StackConfigInput } from "../../config/types";
import { compareVersions } from "../../values";

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
    if (!interconnect)
        add(
            OVN_SOURCE_PATH,
            "image runs each zone's NB, SB and ovn-northd in its own node's ovnkube-node pod, which needs ovnkube.architecture interconnect; a central's databases come from its packages: use interconnect, or packages",
        );
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
