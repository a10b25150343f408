// The host facts check each host's script bundle (./scriptBundle) runs at every preview and up,
// before any command reaches the host: it reads what the host is and judges it (./hostFacts).
import { exec } from "../ssh/exec";
import type { SshTarget } from "../model/sshTarget";
import { hostFactRefusals, hostFactsScript, parseHostFacts, type HostFactsPlan } from "./hostFacts";

/** Why the host must not be touched, one sentence per reason, or undefined; throws when the host cannot be read. */
export async function hostFactsRefusal(ssh: SshTarget, privateKey: string, plan: HostFactsPlan): Promise<string | undefined> {
    const r = await exec(ssh, privateKey, hostFactsScript(plan));
    if (r.code !== 0) return undefined;
    const refusals = hostFactRefusals(plan, parseHostFacts(r.stdout));
    return refusals.length > 0 ? refusals.join("; ") : undefined;
}
