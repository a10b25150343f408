// SSH keys of a local cluster: the user key that logs in as root, and one host key per host,
// pinned by the stack file and by the known_hosts file that tests and users pass to ssh.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { check } from "./run";

/** Generates an ed25519 key pair at `file` and `file.pub`, replacing any old one. */
export async function generateKey(file: string, comment: string): Promise<void> {
    // ssh-keygen asks before overwriting, and nobody is there to answer.
    fs.rmSync(file, { force: true });
    fs.rmSync(`${file}.pub`, { force: true });
    await check(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", file]);
}

/** `ssh-ed25519 AAAA…` without the comment: the form the stack config pins. */
export function publicKeyLine(pubFile: string): string {
    const [type, blob] = fs.readFileSync(pubFile, "utf8").trim().split(/\s+/);
    if (!type || !blob) throw new Error(`${pubFile} is not an OpenSSH public key`);
    return `${type} ${blob}`;
}

/** OpenSSH's SHA256 fingerprint of a public key line, e.g. `SHA256:…` (base64 without padding). */
export function fingerprint(keyLine: string): string {
    const blob = keyLine.trim().split(/\s+/)[1];
    if (!blob) throw new Error(`not a public key line: ${JSON.stringify(keyLine)}`);
    const digest = createHash("sha256").update(Buffer.from(blob, "base64")).digest("base64");
    return `SHA256:${digest.replace(/=+$/, "")}`;
}

/** known_hosts text for the given hosts (each at its IPv4 and, with an IPv6 underlay, its IPv6 address), for `ssh -o UserKnownHostsFile=…`. */
export function knownHosts(hosts: ReadonlyArray<{ ip: string; ip6?: string; hostKeyLine: string }>): string {
    return hosts.map((h) => `${h.ip6 ? `${h.ip},${h.ip6}` : h.ip} ${h.hostKeyLine}\n`).join("");
}
