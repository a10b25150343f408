// What a failed bring-up is read against: on every host, the error and fatal lines (klog's E and F)
// of each ovnkube log in /var/log/ovn-kubernetes, the last few of each file.
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalCluster } from "../../../lab/localcluster";
import { enterableHost } from "../../../lab/localcluster/exec";
import { inHost } from "../../../lab/localcluster/hostfs";

export function ovnkubeErrors(cluster: LocalCluster, perFile = 8): string {
    return cluster.hosts
        .flatMap((host) => {
            const dir = inHost(enterableHost(cluster, host.name).holderPid, "/var/log/ovn-kubernetes");
            const logs = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith("ovnkube") && f.endsWith(".log")) : [];
            if (logs.length === 0) return [`${host.name}: no ovnkube log in ${dir}`];
            return logs.map((log) => {
                const errors = fs
                    .readFileSync(path.join(dir, log), "utf8")
                    .split("\n")
                    .filter((l) => /^[EF]\d{4} /.test(l));
                return `${host.name} ${log}: ${errors.length} error lines${errors.length ? ", the last:\n  " + errors.slice(-perFile).join("\n  ") : ""}`;
            });
        })
        .join("\n");
}
