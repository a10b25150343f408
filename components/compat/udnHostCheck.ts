// The user-defined networks check of a Kubernetes node, which its script bundle
// (../hosts/scriptBundle) runs at every preview and up while ovnkube.features.networkSegmentation
// is on: a host that cannot run ovnkube-node with it (./udnHost says why) is refused before any
// command reaches a host, so turning UDNs on never takes down a node's default network.
import type { SshTarget } from "../model/sshTarget";
import { exec } from "../ssh/exec";
import { parseUdnHost, READ_UDN_HOST_SCRIPT, udnHostRefusal, type UdnHostPlan } from "./udnHost";

/** Why the host at `ssh` cannot serve user-defined networks, or undefined; throws when the host cannot be read. */
export async function udnHostRefusalOn(ssh: SshTarget, privateKey: string, plan: UdnHostPlan): Promise<string | undefined> {
    const r = await exec(ssh, privateKey, READ_UDN_HOST_SCRIPT);
    return r.code === 0 ? udnHostRefusal(plan, parseUdnHost(r.stdout)) : undefined;
}
