// The Pulumi stack file for a local cluster: its hosts as nodes of the `ovn-kubernetes` project,
// with pinned host keys and the cluster's SSH key as a passphrase-encrypted Pulumi secret.
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import type { ClusterSettings, NodeConfig, OvnkubeConfigInput, Role } from "@ovn-kubernetes-as-code/cluster/config";
import { cidrsOverlap } from "@ovn-kubernetes-as-code/cluster/values";
import { DEFAULT_ID, PROJECT_ROOT } from "./names";
import { IncorrectPassphraseError, PassphraseSecrets } from "../offline/passphraseSecrets";
import { LocalCluster, LocalHost, clusterIpFamily, hostIps, hostOs, hostPrimaryIp } from "./state";
import { labCrdDir } from "./labReleases";
import { labImageOvn } from "./node/images";
import { writeLabCrdMirror } from "./labCrdMirror";
import { releaseOf } from "@ovn-kubernetes-as-code/cluster/kube";
import { perFamily, type IpFamily } from "./ipFamily";

/** Passphrase of generated local stacks when neither PULUMI_CONFIG_PASSPHRASE nor PULUMI_CONFIG_PASSPHRASE_FILE is set. Lab use only. */
export const LOCAL_LAB_PASSPHRASE = "ovn-kubernetes-local-lab";

const PROJECT = "ovn-kubernetes";

export const LOCAL_DEFAULTS = {
    clusterSubnet: "10.128.0.0/14",
    serviceSubnet: "172.30.0.0/16",
    // The joinSubnet default of ovn-kubernetes; only checked here, not written.
    joinSubnet: "100.64.0.0/16",
    mtu: 1400,
} as const;

/** The IPv6 twins of LOCAL_DEFAULTS' ranges (ULA); ovnkube's own v6 defaults for join, transit and masquerade apply. */
export const LOCAL_DEFAULTS_IPV6 = {
    clusterSubnet: "fd00:10:128::/48",
    serviceSubnet: "fd00:172:30::/112",
    joinSubnet: "fd98::/64",
} as const;

/** A range in the cluster's families, the primary first: one CIDR per family. */
export function localRange(family: IpFamily, key: keyof typeof LOCAL_DEFAULTS_IPV6): string[] {
    return perFamily(family, LOCAL_DEFAULTS[key], LOCAL_DEFAULTS_IPV6[key]);
}

/** The passphrase as the Pulumi CLI would find it (env, then file), else the lab passphrase. */
export function localPassphrase(env: NodeJS.ProcessEnv = process.env): string {
    if (env.PULUMI_CONFIG_PASSPHRASE !== undefined) return env.PULUMI_CONFIG_PASSPHRASE;
    if (env.PULUMI_CONFIG_PASSPHRASE_FILE) return fs.readFileSync(path.resolve(env.PULUMI_CONFIG_PASSPHRASE_FILE), "utf8").trim();
    return LOCAL_LAB_PASSPHRASE;
}

/** stacks/Pulumi.local.yaml for the default cluster, stacks/Pulumi.local-<id>.yaml for others. */
export function defaultStackPath(id: string): string {
    return path.join(PROJECT_ROOT, "stacks", id === DEFAULT_ID ? "Pulumi.local.yaml" : `Pulumi.local-${id}.yaml`);
}

/**
 * Pulumi mode: the last host is the gateway. ovnkube mode: every node is one (ovnkube's), none has
 * the role. The first `centrals` hosts are centrals (several: clustered NB and SB); with
 * interconnect (`centrals` 0) every node is its own zone and none is.
 */
function rolesOf(index: number, count: number, gatewayRole: boolean, centrals = 1): Role[] {
    const gateway: Role[] = gatewayRole ? ["gateway"] : [];
    const central: Role[] = index < centrals ? ["central"] : [];
    if (count === 1) return [...central, "master", "node", ...gateway];
    if (index === 0) return [...central, "master"];
    return index === count - 1 ? [...central, "node", ...gateway] : [...central, "node"];
}

/** A host's shared gateway: eth0 moves onto breth0 and keeps serving the host, as on a one-NIC machine. */
export function localSharedGateway(cluster: LocalCluster, host: LocalHost): NonNullable<NodeConfig["gateway"]> {
    return {
        mode: "shared",
        interface: "eth0",
        bridge: "breth0",
        physicalIp: `${host.ip}/${cluster.prefixLen}`,
        defaultGateway: cluster.external.ip,
    };
}

export interface LocalStackOptions {
    passphrase?: string;
    /** The cluster's Kubernetes (ovnkube mode): its API server and the admin kubeconfig, a secret of the stack. */
    kubernetes?: { apiServerUrl: string; kubeconfig: string };
    /** One CIDR, or one per family joined by a comma with dual stack (default: the local ranges in the cluster's families). */
    clusterSubnet?: string;
    serviceSubnet?: string;
    /** ovnkube mode's release and architecture (default interconnect), and where its CRDs are read. */
    ovnkube?: OvnkubeConfigInput;
    /** How many hosts (the first ones) are centrals: 1 (default; none with interconnect), 3 or 5. */
    centrals?: number;
    /** More settings of some nodes, by node name (e.g. `egressAssignable`), over what the lab writes. */
    nodeSettings?: Readonly<Record<string, Partial<NodeConfig>>>;
}

/**
 * ovnkube mode's release: the one whose binaries the cluster's kubelets run, with its CRDs read from
 * the lab's copies of the upstream files (a mirror, as an air-gapped cluster would have).
 */
function labOvnkube(cluster: LocalCluster, opts: LocalStackOptions): OvnkubeConfigInput {
    const version = opts.ovnkube?.version ?? cluster.ovnKubernetes?.release;
    if (version === undefined) return { ...opts.ovnkube };
    // The control plane is not on a host: it calls ovnkube-identity's webhook on the master, node1.
    const identity = { webhookAddress: hostPrimaryIp(cluster, cluster.hosts[0]) };
    // Features acting on other projects' kinds need those CRDs too: a mirror of the lab's own then.
    const features: Readonly<Record<string, unknown>> = opts.ovnkube?.features ?? {};
    const crdMirror = Object.keys(releaseOf(version).featureCrdUrls).some((key) => features[key] === true)
        ? writeLabCrdMirror(cluster.id, version, features)
        : `file://${labCrdDir(version)}/`;
    // OVN from the image: the lab's images carry Debian unstable's OVN, which the stack names.
    const imageOvn =
        opts.ovnkube?.ovnSource === "image" && opts.ovnkube.imageOvnVersion === undefined ? { imageOvnVersion: labImageOvn() } : {};
    return { version, crdMirror, identity, ...imageOvn, ...opts.ovnkube };
}

/** A range as the stack writes it: one CIDR per family joined by a comma, the primary first (the chart's form). */
const stackRange = (cidrs: readonly string[]): string => cidrs.join(",");

/**
 * What the stack says about a node's addresses: where SSH and the tunnel reach it (IPv6 in an
 * IPv6-only cluster) and, with dual stack, the kubelet's --node-ip in both families (nodeIp).
 */
function nodeAddresses(cluster: LocalCluster, host: LocalHost): { ip: string; nodeIp?: string } {
    const ips = hostIps(cluster, host);
    return { ip: hostPrimaryIp(cluster, host), ...(ips.length > 1 && { nodeIp: ips.join(",") }) };
}

/** The stack configuration for the cluster's hosts (without the secret). Pure. */
export function localStackConfig(cluster: LocalCluster, opts: LocalStackOptions = {}): ClusterSettings {
    const family = clusterIpFamily(cluster);
    if (family !== "ipv4" && !opts.kubernetes)
        throw new Error(
            `local cluster ${cluster.id} runs ${family}: IPv6 needs ovnkube mode (up --kubernetes); Pulumi mode's topology is IPv4`,
        );
    const clusterSubnet = opts.clusterSubnet ?? stackRange(localRange(family, "clusterSubnet"));
    const serviceSubnet = opts.serviceSubnet ?? stackRange(localRange(family, "serviceSubnet"));
    const ranges = { clusterSubnet, serviceSubnet, joinSubnet: localRange(family, "joinSubnet") };
    // The IPv4 ranges against the IPv4 underlay; the IPv6 underlay is a /64 of fd00:172:31::/48, apart from every IPv6 default.
    for (const [key, cidrs] of Object.entries(ranges)) {
        for (const cidr of [cidrs]
            .flat()
            .flatMap((c) => c.split(","))
            .filter((c) => !c.includes(":")))
            if (cidrsOverlap(cidr, cluster.subnet))
                throw new Error(`${key} ${cidr} overlaps the local cluster's underlay ${cluster.subnet}`);
    }
    const first = cluster.hosts[0];
    if (!first) throw new Error(`local cluster ${cluster.id} has no hosts`);
    const interconnect = opts.kubernetes !== undefined && (opts.ovnkube?.architecture ?? "interconnect") === "interconnect";
    const centrals = interconnect ? 0 : (opts.centrals ?? 1);
    const unknown = Object.keys(opts.nodeSettings ?? {}).filter((name) => !cluster.hosts.some((h) => h.name === name));
    if (unknown.length > 0) throw new Error(`nodeSettings: ${unknown.join(", ")} not among local cluster ${cluster.id}'s hosts`);
    if (centrals > cluster.hosts.length)
        throw new Error(`centrals: ${centrals} asked for, but local cluster ${cluster.id} has ${cluster.hosts.length} hosts`);
    const nodes = cluster.hosts.map((h, i): NodeConfig => {
        // In ovnkube mode ovnkube-node adopts the tunnel NIC's bridge (breth0) as each node's gateway.
        const roles = rolesOf(i, cluster.hosts.length, !opts.kubernetes, centrals);
        const { ip, nodeIp } = nodeAddresses(cluster, h);
        const node: NodeConfig = { name: h.name, address: ip, hostKey: h.hostKeyLine, roles, tunnelIp: ip, tunnelInterface: "eth0" };
        if (nodeIp) node.nodeIp = nodeIp;
        if (roles.includes("gateway")) node.gateway = localSharedGateway(cluster, h);
        return { ...node, ...opts.nodeSettings?.[h.name] };
    });
    return {
        nodes,
        clusterSubnet,
        serviceSubnet,
        encapType: "geneve",
        mtu: LOCAL_DEFAULTS.mtu,
        // No kernel OVS module is needed: OVS's userspace datapath.
        datapathType: "netdev",
        apiServer: { url: opts.kubernetes?.apiServerUrl ?? `http://${first.ip}:8080` },
        ssh: { user: "root", port: 22 },
        // Debian 12 hosts share this machine's installed packages. Debian 13 hosts start without
        // OVS/OVN: the package step installs them with apt-get from the base's local repository
        // (and finds them already installed on any Debian 12 host).
        packages: { skip: cluster.hosts.every((h) => hostOs(h) === "debian12") },
        // Without the cluster's Kubernetes: Pulumi mode, the project writes the topology itself.
        kubernetes: { enabled: opts.kubernetes !== undefined },
        ...(opts.kubernetes ? { ovnkube: labOvnkube(cluster, opts) } : {}),
    };
}

/** Keeps an existing file's salt when the passphrase opens it, so rewriting does not churn it. */
function secretsFor(file: string, passphrase: string): PassphraseSecrets {
    if (fs.existsSync(file)) {
        const salt = (YAML.parse(fs.readFileSync(file, "utf8")) as { encryptionsalt?: unknown } | null)?.encryptionsalt;
        if (typeof salt === "string") {
            try {
                return PassphraseSecrets.open(passphrase, salt);
            } catch (e) {
                if (!(e instanceof IncorrectPassphraseError)) throw e;
            }
        }
    }
    return PassphraseSecrets.create(passphrase);
}

/** Writes the stack file for the cluster and returns its path. */
export function writeLocalStack(cluster: LocalCluster, file = defaultStackPath(cluster.id), opts: LocalStackOptions = {}): string {
    const config = localStackConfig(cluster, opts);
    const passphrase = opts.passphrase ?? localPassphrase();
    const secrets = secretsFor(file, passphrase);
    const privateKey = fs.readFileSync(cluster.privateKeyPath, "utf8");

    const configMap: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(config)) configMap[`${PROJECT}:${key}`] = value;
    configMap[`${PROJECT}:sshPrivateKey`] = { secure: secrets.encrypt(privateKey) };
    if (opts.kubernetes) configMap[`${PROJECT}:kubeconfig`] = { secure: secrets.encrypt(opts.kubernetes.kubeconfig) };

    const doc = new YAML.Document({ encryptionsalt: secrets.encryptionSalt, config: configMap });
    // `roles: [central, master]` reads better than one line per role.
    YAML.visit(doc, {
        Pair(_, pair) {
            if (YAML.isScalar(pair.key) && pair.key.value === "roles" && YAML.isSeq(pair.value)) pair.value.flow = true;
        },
    });
    doc.commentBefore = [
        ` Generated by \`localcluster up\` for local cluster "${cluster.id}" (${cluster.subnet}); rewritten on every up.`,
        ` Secrets use Pulumi's passphrase provider: PULUMI_CONFIG_PASSPHRASE, else "${LOCAL_LAB_PASSPHRASE}".`,
        ` Use with a local backend: pulumi login --local && PULUMI_CONFIG_PASSPHRASE=... pulumi up -s ${path.basename(file).replace(/^Pulumi\.|\.yaml$/g, "")}`,
    ].join("\n");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, doc.toString({ lineWidth: 0 }), { mode: 0o600 });
    return file;
}
