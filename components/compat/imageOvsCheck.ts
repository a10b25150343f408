// The Open vSwitch check of a Kubernetes node with OVN from the image, which its script bundle
// (../hosts/scriptBundle) runs at every preview and up before any command reaches the host, and
// once more after the package step (./imageOvs.ts says why).
import type { SshTarget } from "../model/sshTarget";
import { exec } from "../ssh/exec";
import { imageOvsRefusal, parseHostOvs, READ_OVS_SCRIPT, type ImageOvsPlan } from "./imageOvs";

async function readOvs(ssh: SshTarget, privateKey: string) {
    const r = await exec(ssh, privateKey, READ_OVS_SCRIPT);
    return r.code === 0 ? parseHostOvs(r.stdout) : undefined;
}

/** Why the host's OVS cannot serve the image's OVN, or undefined (also when nothing is known yet); throws when the host cannot be read. */
export async function imageOvsRefusalOn(ssh: SshTarget, privateKey: string, plan: ImageOvsPlan): Promise<string | undefined> {
    const found = await readOvs(ssh, privateKey);
    return found && imageOvsRefusal(plan, found);
}

/** After the package step: the OVS installed or running, refused when too old or missing. */
export async function verifyImageOvsOn(ssh: SshTarget, privateKey: string, plan: ImageOvsPlan): Promise<void> {
    const found = await readOvs(ssh, privateKey);
    if (!found || found.source === "candidate")
        throw new Error(`${plan.node} has no Open vSwitch to read: its package step must install it first`);
    const refusal = imageOvsRefusal(plan, found);
    if (refusal) throw new Error(refusal);
}
