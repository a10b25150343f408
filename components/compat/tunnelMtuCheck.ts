// The tunnel MTU check of a chassis host, which its script bundle (../hosts/scriptBundle) runs at
// every preview and up: an overlay MTU whose tunnel packets would not fit the device carrying the
// node's tunnel address is refused (./tunnelMtu.ts says why) before any command reaches the host,
// so a too-large MTU touches no management port.
import type { SshTarget } from "../model/sshTarget";
import { exec } from "../ssh/exec";
import { retireProvider } from "../dynamic/registry";
import { parseTunnelDevice, readTunnelDeviceScript, tunnelMtuRefusal, type TunnelMtuPlan } from "./tunnelMtu";

/** Why `plan`'s MTU must not be applied on the host at `ssh`, or undefined; throws when the host cannot be read. */
export async function tunnelMtuRefusalOn(ssh: SshTarget, privateKey: string, plan: TunnelMtuPlan): Promise<string | undefined> {
    const r = await exec(ssh, privateKey, readTunnelDeviceScript(plan.tunnelIp));
    return r.code === 0 ? tunnelMtuRefusal(plan, parseTunnelDevice(r.stdout)) : undefined;
}

retireProvider("ovn-kubernetes:TunnelMtuCheck", "each chassis host's script bundle checks its tunnel MTU");
