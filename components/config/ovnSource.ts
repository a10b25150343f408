// Where a node's OVN comes from in ovnkube mode (`ovnkube.ovnSource`): the hosts' distribution
// packages, or the release's image, as upstream's chart runs it (NB, SB, ovn-northd and
// ovn-controller as containers of the ovnkube-node pod). Open vSwitch is the host's either way, so
// the image's OVN must be able to drive the host's OVS: the table below says how old an OVS each
// OVN line accepts. Facts and sources: docs/facts/ovn-in-release-images.md.
import { compareVersions, releaseLineOf } from "../values";

export const OvnSource = { packages: "packages", image: "image" } as const;
export type OvnSource = (typeof OvnSource)[keyof typeof OvnSource];
export const OVN_SOURCES: readonly OvnSource[] = Object.values(OvnSource);
/** Today's behaviour: the distribution's OVN, where it is new enough. */
export const DEFAULT_OVN_SOURCE: OvnSource = "packages";

/**
 * The oldest Open vSwitch each OVN line's ovn-controller serves ovn-kubernetes with, by line. OVN
 * documents none: it "should be able to work with any reasonably fresh version of Open vSwitch"
 * and probes for features (ovn-org/ovn v26.03.2 Documentation/intro/install/ovn-upgrades.rst:46-55).
 * Of its probes (lib/features.c:82-96, 320-347 at v25.09.0 and v26.03.2), the one that affects
 * Services is `ct_flush`, OVS 3.1.0's (openvswitch v3.1.0 ofproto/ofproto-dpif.c:5681): without it
 * ovn-controller does not flush the conntrack entries of removed load-balancer backends
 * (controller/ofctrl.c:3022). Details: docs/facts/ovn-in-release-images.md.
 */
export const MINIMUM_OVS: Readonly<Record<string, string>> = {
    "25.09": "3.1.0",
    "26.03": "3.1.0",
};

/** The OVN lines the table knows, oldest first: an image's OVN must be one of them. */
export const KNOWN_IMAGE_OVN_LINES: readonly string[] = Object.keys(MINIMUM_OVS).sort(compareVersions);

/** The oldest OVS `ovn` (`26.03`, `25.09.2`) runs against, or undefined for a line the table does not know. */
export const minimumOvsFor = (ovn: string): string | undefined => MINIMUM_OVS[releaseLineOf(ovn) ?? ""];
