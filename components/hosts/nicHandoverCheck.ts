// The NIC handover check each host's script bundle (./scriptBundle) runs for the NICs that move
// onto an OVS bridge there (a gateway's, the userspace tunnel's), at every preview and up: it
// refuses a NIC the distribution's own network configuration (ifupdown, netplan,
// systemd-networkd, RHEL network-scripts, NetworkManager) would still configure at boot, when the
// host would come back from a reboot answering on neither. The move's create refuses the same,
// but only when `up` reaches it; this names the file and the fix
// (scripts/bash/boot-distro-config.sh) before anything is touched.
import { retireProvider } from "../dynamic/registry";
import { exec } from "../ssh/exec";
import type { SshTarget } from "../model/sshTarget";
import { nicHandoverScript, type NicBridge } from "./scripts/nicMoveScript";

/** What the distribution still configures of the NIC, as the script words it; undefined when nothing; throws when the host cannot be read. */
export async function nicHandoverRefusal(ssh: SshTarget, privateKey: string, nic: NicBridge): Promise<string | undefined> {
    const r = await exec(ssh, privateKey, nicHandoverScript(nic));
    if (r.code === 0) return undefined;
    return r.stderr.replace(/^error: /m, "").trim() || `the handover check of ${nic.interface} exited ${r.code}`;
}

retireProvider("ovn-kubernetes:NicHandoverCheck", "each host's script bundle checks its NICs' handover");
