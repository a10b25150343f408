// Command line of the local cluster:
//   node --import tsx localcluster/cli.ts up [N] [--id ID] [--os debian12|debian13|debian-sid]
//                                           [--kubernetes [--ovn-kubernetes 1.3|1.2] [--ovn-source packages|image] | --lab-dir DIR] [--subnet CIDR]
//                                           [--stack-file PATH | --no-stack-file] [--centrals N] [--ip-family ipv4|dual|ipv6]
//   node --import tsx localcluster/cli.ts status [--id ID] [--json]
//   node --import tsx localcluster/cli.ts down [--id ID]
//   node --import tsx localcluster/cli.ts exec [--id ID] HOST -- COMMAND [ARG...]
import { spawnSync } from "node:child_process";
import * as os from "node:os";
import { parseArgs } from "node:util";
import { enterableHost, hostArgv } from "./exec";
import { down } from "./down";
import { DEFAULT_HOSTS, DEFAULT_ID } from "./names";
import { DEFAULT_OS, HOST_OSES, HostOs, loadCluster } from "./state";
import { defaultStackPath, LOCAL_LAB_PASSPHRASE, writeLocalStack } from "./stackFile";
import { status } from "./status";
import { formatStatus } from "./table";
import { up } from "./up";
import { DEFAULT_IP_FAMILY, IP_FAMILIES, checkIpFamily } from "./ipFamily";
import { upWithKubernetes } from "./kubernetes";
import { OVN_SOURCES, type OvnSource } from "@ovn-kubernetes-as-code/cluster/config";
import { DEFAULT_OVN_KUBERNETES_RELEASE, KUBERNETES_VERSION, OVN_KUBERNETES_RELEASES, checkOvnKubernetesRelease } from "./labReleases";

const USAGE = `usage: localcluster <command> [options]
  up [N]      create N bare hosts (default ${DEFAULT_HOSTS}) and write the stack file
              --os OS             ${HOST_OSES.join(", ")} (default ${DEFAULT_OS}): debian12 hosts share this
                                  machine's root and packages; debian13 and debian-sid hosts run on
                                  their own root (an overlay of a Debian 13 / unstable base built
                                  once, about 1 min) and get OVS/OVN from the stack's package step
              --lab-dir DIR       a directory every host sees read-only at /opt/ovn-kubernetes-lab
              --kubernetes        also a Kubernetes control plane (${KUBERNETES_VERSION}, lab binaries) and a Node
                                  per host; the stack file then runs in ovnkube mode. debian13 and
                                  debian-sid hosts run the upstream kubelet ${KUBERNETES_VERSION} with containerd 2
                                  and images built here (about 1 min once, cached); debian12 hosts
                                  lack containerd 2 and only register their Node
              --ovn-kubernetes R  with --kubernetes: the release whose binaries the hosts get,
                                  ${OVN_KUBERNETES_RELEASES.join(", ")} (default ${DEFAULT_OVN_KUBERNETES_RELEASE}); both need OVN
                                  25.09+ (--os debian-sid)
              --ovn-source S      with --kubernetes: where the stack file runs OVN, packages (default:
                                  the hosts' packages) or image (the ovnkube-node pods, from the lab's
                                  image with Debian unstable's OVN: how debian13 hosts run ovnkube)
              --subnet CIDR       underlay (default 172.31.<n>.0/24 derived from the id)
              --stack-file PATH   where to write the stack (default stacks/Pulumi.local.yaml,
                                  or stacks/Pulumi.local-<id>.yaml for another id)
              --no-stack-file     do not write one
              --centrals N        the first N hosts are centrals (1, 3 or 5; several: clustered NB/SB)
              --ip-family F       ${IP_FAMILIES.join(", ")} (default ${DEFAULT_IP_FAMILY}): dual and ipv6 add an IPv6 underlay
                                  (a ULA /64 beside the IPv4 one), and with --kubernetes a dual-stack
                                  or IPv6-only API server, kubelets and stack file (debian13, debian-sid)
  status      show hosts, addresses, processes and SSH reachability (--json for JSON)
  down        remove every process, namespace, link and file of the cluster
  exec HOST -- COMMAND [ARG...]
              run COMMAND inside HOST (its mount, network and UTS namespaces), as a shell on that
              machine would, e.g. exec node1 -- ovn-nbctl show; exits with the command's code
common:       --id ID   cluster id (default "${DEFAULT_ID}"; a-z then up to 7 a-z/0-9)`;

class UsageError extends Error {}

/** Runs a check of an option's value; its failure is a usage error. */
function usage<T>(check: () => T): T {
    try {
        return check();
    } catch (e) {
        throw new UsageError((e as Error).message);
    }
}

/** Runs a command inside a host with this terminal, and returns its exit code (128 + signal when killed). */
function execInHost(id: string, host: string, command: string[]): number {
    const [bin, ...args] = hostArgv(enterableHost(loadCluster(id), host), command);
    const r = spawnSync(bin, args, { stdio: "inherit" });
    if (r.error) throw r.error;
    return r.status ?? 128 + (r.signal ? (os.constants.signals[r.signal] ?? 0) : 0);
}

async function main(argv: string[]): Promise<number> {
    // Everything after `--` is exec's command, its options included.
    const dash = argv.indexOf("--");
    const hostCommand = dash < 0 ? [] : argv.slice(dash + 1);
    const { values, positionals } = parseArgs({
        args: dash < 0 ? argv : argv.slice(0, dash),
        allowPositionals: true,
        options: {
            id: { type: "string", default: DEFAULT_ID },
            subnet: { type: "string" },
            os: { type: "string", default: DEFAULT_OS },
            "lab-dir": { type: "string" },
            kubernetes: { type: "boolean", default: false },
            "ovn-kubernetes": { type: "string" },
            "ovn-source": { type: "string" },
            "stack-file": { type: "string" },
            "no-stack-file": { type: "boolean", default: false },
            centrals: { type: "string", default: "1" },
            "ip-family": { type: "string", default: DEFAULT_IP_FAMILY },
            json: { type: "boolean", default: false },
            help: { type: "boolean", short: "h", default: false },
        },
    });
    const [command, ...rest] = positionals;
    const id = values.id!;
    if (values.help || command === "help") {
        console.log(USAGE);
        return 0;
    }
    if (command !== "exec" && dash >= 0) throw new UsageError("only exec takes -- and a command");
    switch (command) {
        case "up": {
            if (rest.length > 1 || (rest[0] !== undefined && !/^\d+$/.test(rest[0])))
                throw new UsageError("up takes one optional number of hosts");
            if (!/^\d+$/.test(values.centrals!)) throw new UsageError("--centrals takes a number of hosts (1, 3 or 5)");
            const started = Date.now();
            if (values.kubernetes && values["lab-dir"])
                throw new UsageError("--kubernetes brings its own lab directory: leave out --lab-dir");
            if (values["ovn-kubernetes"] !== undefined && !values.kubernetes)
                throw new UsageError("--ovn-kubernetes goes with --kubernetes");
            const ovnSource = values["ovn-source"];
            if (ovnSource !== undefined && !values.kubernetes) throw new UsageError("--ovn-source goes with --kubernetes");
            if (ovnSource !== undefined && !(OVN_SOURCES as readonly string[]).includes(ovnSource))
                throw new UsageError(`--ovn-source is one of ${OVN_SOURCES.join(", ")}, not ${ovnSource}`);
            const ovnKubernetes =
                values["ovn-kubernetes"] === undefined ? undefined : usage(() => checkOvnKubernetesRelease(values["ovn-kubernetes"]!));
            const hostOptions = {
                id,
                hosts: rest[0] ? Number(rest[0]) : undefined,
                subnet: values.subnet,
                os: values.os as HostOs /* checked by up, which names the choices */,
                ipFamily: usage(() => checkIpFamily(values["ip-family"]!)),
            };
            const { cluster, kubernetes } = values.kubernetes
                ? await upWithKubernetes({ ...hostOptions, ovnKubernetes })
                : { cluster: await up({ ...hostOptions, labDir: values["lab-dir"] }), kubernetes: undefined };
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            console.log(formatStatus(await status(id)));
            console.log(`up in ${seconds} s; state in ${cluster.dir}`);
            const h = cluster.hosts[0];
            console.log(
                `hosts run ${values.os}${h.base ? ` on their own root (overlay of ${h.base}); a host's files: /proc/<holder>/root/<path>` : ""}`,
            );
            if (kubernetes) {
                const o = cluster.ovnKubernetes!;
                console.log(
                    o.kubelet
                        ? `ovn-kubernetes ${o.release}: kubelet ${KUBERNETES_VERSION} and containerd on every host, ${o.image} imported there`
                        : `ovn-kubernetes ${o.release}: every host registered as a Node, with no kubelet (${values.os} lacks containerd 2): ovnkube cannot run here`,
                );
                console.log(`kubectl: KUBECONFIG=${kubernetes.controlPlane.adminKubeconfig.path} kubectl get nodes`);
            }
            if (!values["no-stack-file"]) {
                const k8s = kubernetes && {
                    apiServerUrl: kubernetes.controlPlane.apiServerUrl,
                    kubeconfig: kubernetes.controlPlane.adminKubeconfig.content,
                };
                const file = writeLocalStack(cluster, values["stack-file"] ?? defaultStackPath(id), {
                    kubernetes: k8s,
                    centrals: Number(values.centrals),
                    ...(ovnSource && { ovnkube: { ovnSource: ovnSource as OvnSource } }),
                });
                console.log(`stack file: ${file}${k8s ? " (ovnkube mode)" : " (Pulumi mode)"}`);
                console.log(`  its secrets use PULUMI_CONFIG_PASSPHRASE if set, else the lab passphrase "${LOCAL_LAB_PASSPHRASE}"`);
            }
            console.log(`ssh: ssh -i ${cluster.privateKeyPath} -o UserKnownHostsFile=${cluster.knownHostsPath} root@${h.ip}`);
            return 0;
        }
        case "status": {
            if (rest.length > 0) throw new UsageError("status takes no arguments");
            const s = await status(id);
            console.log(values.json ? JSON.stringify(s, null, 2) : formatStatus(s));
            return s.healthy ? 0 : 1;
        }
        case "down": {
            if (rest.length > 0) throw new UsageError("down takes no arguments");
            const started = Date.now();
            const r = await down(id);
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            console.log(
                `local cluster ${id} down in ${seconds} s: ${r.processes} processes ended, ${r.netns.length} namespaces and ${r.links.length} links removed`,
            );
            return 0;
        }
        case "exec": {
            if (rest.length !== 1 || hostCommand.length === 0)
                throw new UsageError("exec takes one host, then -- and the command, e.g. exec node1 -- ovn-nbctl show");
            return execInHost(id, rest[0], hostCommand);
        }
        default:
            throw new UsageError(command ? `unknown command ${JSON.stringify(command)}` : "no command given");
    }
}

main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
        const usage = e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
        console.error(`localcluster: ${(e as Error).message}`);
        if (usage) console.error(USAGE);
        process.exit(usage ? 2 : 1);
    },
);
