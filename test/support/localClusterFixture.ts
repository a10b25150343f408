// A local cluster's description as `up` records it, from the real address plans, without hosts
// behind it: for the pure parts that read it (the stack file, the control plane's addresses).
import * as fs from "node:fs";
import * as path from "node:path";
import { planAddresses, planAddresses6 } from "../../lab/localcluster/addressing";
import type { IpFamily } from "../../lab/localcluster/ipFamily";
import type { LocalCluster } from "../../lab/localcluster/state";

export interface FixtureOptions {
    id: string;
    subnet: string;
    hosts: number;
    /** Where the cluster's key file is written. */
    dir: string;
    ipFamily?: IpFamily;
    ovnKubernetes?: LocalCluster["ovnKubernetes"];
}

export function localClusterFixture(o: FixtureOptions): LocalCluster {
    const privateKeyPath = path.join(o.dir, "id_ed25519");
    fs.writeFileSync(privateKeyPath, "-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n-----END OPENSSH PRIVATE KEY-----\n");
    const v4 = planAddresses(o.subnet, o.hosts);
    const v6 = (o.ipFamily ?? "ipv4") === "ipv4" ? undefined : planAddresses6(v4);
    return {
        id: o.id,
        dir: o.dir,
        bridge: `lc-${o.id}`,
        subnet: v4.subnet,
        prefixLen: v4.prefixLen,
        operatorIp: v4.operator,
        external: { ns: `lc-${o.id}-ext`, ip: v4.external, ...(v6 && { ip6: v6.external }) },
        ...(v6 && { ipFamily: o.ipFamily, ipv6: { subnet: v6.subnet, prefixLen: v6.prefixLen, operatorIp: v6.operator } }),
        hosts: v4.hosts.map((ip, i) => ({
            name: `node${i + 1}`,
            ip,
            ...(v6 && { ip6: v6.hosts[i] }),
            holderPid: 1,
            sshPort: 22,
            hostKeyLine: `ssh-ed25519 AAAAkey${i}`,
            hostKeyFingerprint: `SHA256:fp${i}`,
            netns: `lc-${o.id}-node${i + 1}`,
            veth: `lc-${o.id}-${i + 1}`,
            dir: path.join(o.dir, "hosts", `node${i + 1}`),
        })),
        privateKeyPath,
        publicKey: "ssh-ed25519 AAAAuser",
        knownHostsPath: path.join(o.dir, "known_hosts"),
        ...(o.ovnKubernetes && { ovnKubernetes: o.ovnKubernetes }),
    };
}
