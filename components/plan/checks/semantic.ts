// Checks JSON Schema cannot express: CIDR arithmetic (ipaddr.js), uniqueness across nodes,
// role combinations, secrets that a chosen mode needs. Runs on schema-valid input with defaults.
// Each relation over many fields has a file of its own (addresses, listeners, key material,
// capacity, transports, applicability, features); docs/validation.md lists them all.
import {
    type Cidr,
    type Cidr4,
    containsIp,
    contains,
    isIpv4,
    networkOf,
    overlaps,
    parseCidr,
    parseNetwork,
    toInt,
    type IpFamily,
} from "../../values";
import { INTEGRATION_BRIDGE, nicBridge } from "../../model/names";
import { gatewayBridgeOf, isK8sNode, isTunnelEndpoint, tunnelBridgeOf, tunnelIpOf } from "../../model/nodes";
import { vtepProblems } from "./vtep";
import { addressProblems } from "./addresses";
import { capacityProblems } from "./capacity";
import { applicabilityProblems, podRoomProblem } from "./applicability";
import { hostKeyProblems, kubeconfigServer, secretMaterialProblems, type SecretTexts } from "./keyMaterial";
import { listenerProblems } from "./listeners";
import { featureProblems } from "./features";
import { ipsecProblems } from "./ipsec";
import { ovnSourceProblems } from "./ovnSource";
import { imageReferenceProblems } from "./imageReference";
import { masqueradeProblems } from "./masquerade";
import { apiServerAddressProblems } from "./apiServerAddress";
import { reservedNameProblems } from "./reservedNames";
import { nodeSubnetSizeProblems } from "./nodeSubnetSize";
import { packagePinProblems } from "./packagePins";
import { publicRangeProblems, specialRangeProblems } from "./publicRanges";
import { udnRangeProblems } from "./udnRanges";
import { identityProblems } from "./identity";
import { crdMirrorProblems } from "./crdMirror";
import { secretCopyProblems } from "./secretCopies";
import { labOnlyProblems, referenceProblems, transportProblems } from "./transports";
import { hostSubnetLengthsOf, listOf, RANGE_KEYS, rangesOf, type RangeKey } from "../../config/families";

import { familyProblems, type FamilyNets } from "./families";
import { DEFAULT_OVNKUBE_ARCHITECTURE, DEFAULT_OVNKUBE_VERSION } from "../../config/releases";
import { kubeconfigDir } from "../../kube/hostPaths";
import { NODE_HOST_DIRS } from "../../kube/ovnkubeNodeDaemonSets";
import { plainSecretProblems, setSecretCommand } from "../../config/secretStorage";
import type { DatapathType, SecretKey, StackConfigInput } from "../../config/types";
import type { Problem } from "../../config/problem";

type Defaulted = StackConfigInput;

/** `texts`: the secrets' plain values where the program has them; only their presence otherwise. */
export function semanticProblems(cfg: Defaulted, secretsPresent: Set<SecretKey>, texts: SecretTexts = {}): Problem[] {
    const problems: Problem[] = [];
    const add = (path: string, message: string) => problems.push({ path, message });
    // Kubernetes enabled: ovnkube realises the topology (README "Who writes what").
    const ovnkubeMode = cfg.kubernetes?.enabled ?? true;

    /** Parses a CIDR that must be a network address, reporting at `path`. */
    const network = (path: string, text: string): Cidr4 | undefined => {
        try {
            return parseNetwork(text);
        } catch (e) {
            add(path, (e as Error).message);
            return undefined;
        }
    };

    const interconnect = ovnkubeMode && (cfg.ovnkube?.architecture ?? DEFAULT_OVNKUBE_ARCHITECTURE) === "interconnect";
    // Each family's ranges; ovnkube's own networks only where ovnkube runs, the transit switch only between zones.
    const families = familyProblems(cfg, ovnkubeMode, add) ?? [];
    const rangeOf = (key: RangeKey, applies = true): Array<Cidr | undefined> => {
        const texts = applies ? rangesOf(cfg, key, families) : [];
        return families.map((_, k) => (texts[k] === undefined ? undefined : network(key, texts[k])));
    };
    const nets: FamilyNets[] = families.map((family, k) => ({
        family,
        k,
        hostSubnetLength: hostSubnetLengthsOf(cfg.hostSubnetLength, families)[k],
        path: (key: RangeKey) => key,
    }));
    const [clusters, services, joins, transits, masquerades] = [
        rangeOf("clusterSubnet"),
        rangeOf("serviceSubnet"),
        rangeOf("joinSubnet"),
        rangeOf("transitSubnet", interconnect),
        rangeOf("masqueradeSubnet", ovnkubeMode),
    ];
    nets.forEach((f) =>
        Object.assign(f, {
            cluster: clusters[f.k],
            service: services[f.k],
            join: joins[f.k],
            transit: transits[f.k],
            masquerade: masquerades[f.k],
        }),
    );
    const named: Array<[string, Cidr | undefined]> = nets.flatMap((f) =>
        (["clusterSubnet", "serviceSubnet", "joinSubnet", "transitSubnet", "masqueradeSubnet"] as const).map(
            (key): [string, Cidr | undefined] => [
                f.path(key),
                [f.cluster, f.service, f.join, f.transit, f.masquerade][RANGE_KEYS.indexOf(key)],
            ],
        ),
    );
    for (let i = 0; i < named.length; i++)
        for (let j = i + 1; j < named.length; j++) {
            const [an, a] = named[i];
            const [bn, b] = named[j];
            if (a && b && overlaps(a, b))
                add(bn, `${b.text} overlaps ${an} ${a.text}; the cluster, service, join, transit and masquerade subnets must be disjoint`);
        }
    for (const f of nets) {
        if (f.cluster && f.hostSubnetLength <= f.cluster.prefix)
            add(
                f.family === "ipv4" ? "hostSubnetLength" : "clusterSubnet",
                f.family === "ipv4"
                    ? `/${f.hostSubnetLength} is not longer than clusterSubnet /${f.cluster.prefix}: no room for more than one node`
                    : `${f.cluster.text} leaves no room for ovnkube's /${f.hostSubnetLength} IPv6 node subnets: an IPv6 cluster subnet must be shorter than /${f.hostSubnetLength}`,
            );
        // The cluster router and one gateway router, besides network and broadcast.
        if (f.join && f.join.prefix > f.join.bits - 3)
            add(f.path("joinSubnet"), `/${f.join.prefix} is too small for the cluster router and a gateway router`);
    }
    const clusterOf = (family: IpFamily) => nets.find((f) => f.family === family)?.cluster;

    if (ovnkubeMode) checkIdentity(cfg, add);
    if (ovnkubeMode) identityProblems(cfg, add);
    if (interconnect) checkNoCentrals(cfg, add);
    else checkCentrals(cfg, add);
    if (!cfg.nodes.some((n) => n.roles.includes("master"))) add("nodes", `at least one node must have the role "master"`);

    const seen = new Map<string, number>();
    const pinned: Array<[number, Cidr4]> = [];
    cfg.nodes.forEach((n, i) => {
        const p = `nodes[${i}]`;
        if (seen.has(n.name)) add(`${p}.name`, `"${n.name}" is already used by nodes[${seen.get(n.name)}]`);
        else seen.set(n.name, i);

        // A DNS name may be all digits, but a dotted quad that is no IPv4 address is a typo.
        if (/^[0-9.]+$/.test(n.address) && !isIpv4(n.address)) add(`${p}.address`, `"${n.address}" is not a valid IPv4 address`);
        const tunnelIp = tunnelIpOf(n);
        const chassis = isTunnelEndpoint(n);
        if (chassis && !tunnelIp) add(`${p}.tunnelIp`, `required because address "${n.address}" is not an IP address`);
        const netdev = (n.datapathType ?? cfg.datapathType ?? "system") === "netdev";
        const onGatewayBridge = n.gateway?.mode === "shared" && (!n.tunnelInterface || n.tunnelInterface === n.gateway.interface);
        if (chassis && netdev && !n.tunnelInterface && !onGatewayBridge)
            add(`${p}.tunnelInterface`, `required with datapathType netdev: userspace tunnels need the tunnel IP on an OVS bridge`);
        if (n.tunnelInterface && nicBridge(n.tunnelInterface).length > 15)
            add(`${p}.tunnelInterface`, `bridge "${nicBridge(n.tunnelInterface)}" would be longer than 15 characters`);
        // The NB/SB listeners, remotes and raft addresses are IPv4 (an IPv6-only cluster is interconnect's).
        if (n.roles.includes("central") && !(tunnelIp && isIpv4(tunnelIp)))
            add(`${p}.tunnelIp`, `the central node needs an IPv4 address for the NB/SB listeners${tunnelIp ? `, got ${tunnelIp}` : ""}`);

        if (!n.hostKey && !cfg.ssh?.insecureIgnoreHostKey)
            add(
                `${p}.hostKey`,
                `required: pin the host key (ssh-keyscan), or set ssh.insecureIgnoreHostKey with lab: true for a throw-away lab`,
            );

        const k8sNode = isK8sNode(n);
        if (n.subnet && !k8sNode) add(`${p}.subnet`, `only master and node roles have a node subnet`);
        listOf(n.subnet).forEach((text, k) => {
            const path = `${p}.subnet`;
            const s = network(path, text);
            const cluster = nets[k]?.cluster;
            if (!s || !cluster) return;
            if (!contains(cluster, s)) add(path, `${s.text} is not inside clusterSubnet ${cluster.text}`);
            else if (podRoomProblem(s.prefix, s.bits)) add(path, podRoomProblem(s.prefix, s.bits)!);
            else {
                for (const [j, o] of pinned) if (overlaps(o, s)) add(path, `${s.text} overlaps nodes[${j}].subnet ${o.text}`);
                pinned.push([i, s]);
            }
        });

        const isGateway = n.roles.includes("gateway");
        if (isGateway && !n.gateway) add(`${p}.gateway`, `required for the role "gateway"`);
        if (!isGateway && n.gateway) add(`${p}.gateway`, `set, but the node lacks the role "gateway"`);
        if (isGateway && !k8sNode) add(`${p}.roles`, `a gateway must also be a "node" or "master"`);
        if (n.gateway) checkGateway(`${p}.gateway`, n.gateway, named, clusterOf("ipv4"), add);
        if (ovnkubeMode && n.gateway) checkOvnkubeGateway(`${p}.gateway`, n.gateway, add);
        checkGatewayNic(p, n, n.datapathType ?? cfg.datapathType, add);
    });
    // ovnkube-node writes ovn-encap-type=geneve on every node whatever it is told (setupOVNNode).
    if (ovnkubeMode && cfg.encapType !== "geneve")
        add(
            "encapType",
            `"${cfg.encapType}" is not supported ${OVNKUBE_MODE}: ovnkube sets every node's ovn-encap-type to geneve; use geneve, or set kubernetes.enabled: false`,
        );
    hostKeyProblems(cfg, add);
    secretMaterialProblems(cfg, texts, add);
    addressProblems(cfg, named, add);
    listenerProblems(cfg, { centralized: !interconnect, ovnkubeMode }, add);
    featureProblems(cfg, ovnkubeMode, add);
    vtepProblems(cfg, ovnkubeMode, add);
    ipsecProblems(cfg, ovnkubeMode, interconnect, add);
    ovnSourceProblems(cfg, ovnkubeMode, interconnect, add);
    labOnlyProblems(cfg, add);
    referenceProblems(cfg, add);
    imageReferenceProblems(cfg, cfg.ovnkube?.version ?? DEFAULT_OVNKUBE_VERSION, add);
    crdMirrorProblems(cfg, cfg.ovnkube?.version ?? DEFAULT_OVNKUBE_VERSION, add);
    transportProblems(cfg, ovnkubeMode, texts.kubeconfig === undefined ? undefined : kubeconfigServer(texts.kubeconfig), add);
    applicabilityProblems(cfg, add);
    checkKubernetesCredentials(cfg, ovnkubeMode, secretsPresent, add);
    checkNamespace(cfg, add);
    problems.push(...plainSecretProblems(cfg));
    secretCopyProblems(cfg, add);

    // Pulumi mode hands the API server to the chassis (external_ids k8s-api-*); in ovnkube mode
    // ovnkube authenticates with its service account and the program with `kubeconfig`.
    if (!ovnkubeMode && cfg.apiServer.url.startsWith("https://"))
        for (const k of ["k8sApiToken", "k8sCaCertificate"] as const)
            if (!secretsPresent.has(k)) add(k, `required (as a secret) because apiServer.url is https`);
    if (cfg.ovnTransport?.protocol === "ssl")
        for (const k of ["ovnSslPrivateKey", "ovnSslCertificate", "ovnSslCaCertificate"] as const)
            if (!secretsPresent.has(k)) add(k, `required (as a secret) because ovnTransport.protocol is ssl`);

    for (const f of nets) masqueradeProblems(f.masquerade, f.path("masqueradeSubnet"), add);
    if (ovnkubeMode) apiServerAddressProblems(cfg, services, add);
    if (interconnect) reservedNameProblems(cfg, add);
    if (ovnkubeMode) for (const f of nets) nodeSubnetSizeProblems(cfg, f, add);
    packagePinProblems(cfg, add);
    publicRangeProblems(
        nets.flatMap((f): Array<[string, Cidr | undefined]> => [
            [f.path("clusterSubnet"), f.cluster],
            [f.path("serviceSubnet"), f.service],
        ]),
        cfg.allowPublicClusterRanges === true,
        add,
    );
    if (ovnkubeMode && cfg.ovnkube?.features?.networkSegmentation) udnRangeProblems(named, add);
    specialRangeProblems(
        named.filter(([path]) => !path.startsWith("masqueradeSubnet")),
        add,
    );
    for (const f of nets) capacityProblems(cfg, { ...f, ovnkubeMode, mode: OVNKUBE_MODE }, add);
    return problems;
}

/** A gateway's NIC and its LAN: `routed` are the cluster's own networks, which that LAN must not overlap. */
function checkGateway(
    p: string,
    g: NonNullable<StackConfigInput["nodes"][number]["gateway"]>,
    routed: ReadonlyArray<[string, Cidr4 | undefined]>,
    cluster: Cidr4 | undefined,
    add: (path: string, message: string) => void,
) {
    const bridge = gatewayBridgeOf(g);
    if (bridge.length > 15) add(`${p}.bridge`, `"${bridge}" is longer than 15 characters; set gateway.bridge`);
    if (bridge === g.interface) add(`${p}.bridge`, `must differ from the interface`);
    let phys: Cidr4 | undefined;
    try {
        phys = parseCidr(g.physicalIp);
    } catch (e) {
        add(`${p}.physicalIp`, (e as Error).message);
    }
    if (phys) {
        const net = networkOf(g.physicalIp);
        if (!containsIp(net, g.defaultGateway))
            add(`${p}.defaultGateway`, `${g.defaultGateway} is not in the subnet of physicalIp ${g.physicalIp}`);
        else if (toInt(g.defaultGateway) === phys.base) add(`${p}.defaultGateway`, `equals the physical IP`);
        for (const [name, c] of routed) if (c && overlaps(c, net)) add(`${p}.physicalIp`, `${g.physicalIp} overlaps ${name} ${c.text}`);
    }
    (g.rampoutSubnets ?? []).forEach((r, k) => {
        try {
            const c = parseNetwork(r);
            if (cluster && !contains(cluster, c)) add(`${p}.rampoutSubnets[${k}]`, `${r} is not inside clusterSubnet ${cluster.text}`);
        } catch (e) {
            add(`${p}.rampoutSubnets[${k}]`, (e as Error).message);
        }
    });
}

/**
 * A gateway's NIC and bridge on its host. The bridge is created, tagged and deleted by the
 * project, so it must never be a name the host already uses: OVN's integration bridge br-int,
 * the host's tunnel bridge (userspace datapath: br<tunnelInterface>), or its tunnel NIC. A
 * dedicated NIC leaves the host's IP stack, so it must not carry the node's SSH address or its
 * tunnel IP: the host would lose them.
 */
function checkGatewayNic(
    p: string,
    n: StackConfigInput["nodes"][number],
    datapathType: DatapathType | undefined,
    add: (path: string, message: string) => void,
) {
    const g = n.gateway;
    if (!g) return;
    const bridge = gatewayBridgeOf(g);
    const tunnelNic = n.tunnelInterface;
    const tunnelBridge = tunnelBridgeOf(n, datapathType)?.bridge;
    for (const [key, name] of [
        ["bridge", bridge],
        ["interface", g.interface],
    ] as const) {
        if (name === INTEGRATION_BRIDGE)
            add(`${p}.gateway.${key}`, `"${INTEGRATION_BRIDGE}" is OVN's integration bridge; name another ${key}`);
        else if (name === tunnelBridge)
            add(
                `${p}.gateway.${key}`,
                `"${name}" is this node's tunnel bridge (tunnelInterface ${tunnelNic} with datapathType netdev); name another ${key}`,
            );
    }
    if (tunnelNic && bridge === tunnelNic)
        add(`${p}.gateway.bridge`, `"${bridge}" is this node's tunnelInterface, an existing NIC; name another bridge`);
    if (g.mode !== "dedicated") return;
    const leaves = `a dedicated gateway NIC leaves the host's IP stack`;
    if (tunnelNic === g.interface)
        add(
            `${p}.gateway.interface`,
            `${leaves}, but ${g.interface} is also the tunnelInterface: the tunnel IP would go with it; use mode "shared" or another NIC`,
        );
    let net: Cidr4;
    try {
        net = networkOf(g.physicalIp);
    } catch {
        return; // reported by checkGateway
    }
    for (const [key, ip] of [
        ["address", n.address],
        ["tunnelIp", n.tunnelIp],
    ] as const) {
        if (ip && isIpv4(ip) && containsIp(net, ip) && !(key === "tunnelIp" && ip === n.address))
            add(
                `${p}.gateway.physicalIp`,
                `${leaves}, but ${p}.${key} ${ip} is inside its physicalIp ${g.physicalIp}, so it is on that NIC and would be removed${key === "address" ? ", locking out SSH" : ""}; use mode "shared", or a NIC on another network`,
            );
    }
}

/** Clustered (raft) databases need a majority: 1, 3 or 5 members. */
export const CENTRAL_COUNTS: readonly number[] = [1, 3, 5];

const centralIndexes = (cfg: Defaulted): number[] => cfg.nodes.flatMap((n, i) => (n.roles.includes("central") ? [i] : []));

/** One central, or an odd number up to 5 forming NB and SB raft clusters, each on its own address. */
function checkCentrals(cfg: Defaulted, add: (path: string, message: string) => void) {
    const centrals = centralIndexes(cfg);
    if (!CENTRAL_COUNTS.includes(centrals.length))
        add(
            "nodes",
            `1, 3 or 5 nodes must have the role "central" (found ${centrals.length}): several centrals form raft clusters, which need an odd number of members`,
        );
    if (centrals.length < 2) return;
    // Each member's own address is one of ./addresses.ts's relations.
    for (const i of centrals) {
        const n = cfg.nodes[i];
        // The clustered start goes through Debian's ovn-ctl units (systemd drop-ins) or ovn-ctl itself.
        if ((n.os ?? "debian") !== "debian")
            add(
                `nodes[${i}].os`,
                `clustered centrals (several nodes with the role "central") are supported on debian hosts only, got ${n.os}`,
            );
    }
}

/**
 * The API server calls the webhook at its address: localhost (upstream's: every API server beside an
 * ovnkube-identity pod on a master) or a master, where ovnkube-identity listens on the node's address.
 */
function checkIdentity(cfg: Defaulted, add: (path: string, message: string) => void) {
    const identity = cfg.ovnkube?.identity;
    if (!identity || identity.enabled === false) return;
    if (identity.bootstrapKubeconfig !== undefined) {
        // ovnkube-node mounts the file's directory: not /, and neither one it mounts already nor a parent of one (it would shadow it).
        const dir = kubeconfigDir(identity.bootstrapKubeconfig);
        const taken = NODE_HOST_DIRS.map((d) => d.mountPath).find((m) => dir === m || m.startsWith(`${dir}/`));
        if (dir === "/" || taken)
            add(
                "ovnkube.identity.bootstrapKubeconfig",
                `${identity.bootstrapKubeconfig}: ovnkube-node mounts this file's directory, which ${dir === "/" ? "is the host's root" : `is or holds ${taken}, a directory it mounts already`}; keep the kubelet's kubeconfig in a directory of its own, such as /etc/kubernetes`,
            );
    }
    if (identity.webhookAddress === undefined || identity.webhookAddress === "localhost") return;
    const masters = cfg.nodes.filter((n) => n.roles.includes("master"));
    if (!masters.some((n) => n.address === identity.webhookAddress || n.tunnelIp === identity.webhookAddress))
        add(
            "ovnkube.identity.webhookAddress",
            `${identity.webhookAddress} is no master's address: ovnkube-identity runs on the masters (${masters.map((n) => n.address).join(", ")}); use localhost when every API server runs on a master, or a master's address`,
        );
}

/** Interconnect: every node is its own zone with local NB, SB and northd, so no node is the central. */
function checkNoCentrals(cfg: Defaulted, add: (path: string, message: string) => void) {
    for (const i of centralIndexes(cfg))
        add(
            `nodes[${i}].roles`,
            `"central" has no place with ovnkube.architecture interconnect: every node runs its own NB, SB and ovn-northd; remove the role, or set ovnkube.architecture: centralized`,
        );
}

/** Namespaces Kubernetes itself owns: the stack creates its namespace and deletes it on destroy. */
const RESERVED_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

function checkNamespace(cfg: Defaulted, add: (path: string, message: string) => void) {
    const ns = cfg.kubernetes?.namespace;
    if (ns !== undefined && RESERVED_NAMESPACES.includes(ns))
        add(
            "kubernetes.namespace",
            `"${ns}" belongs to Kubernetes, but the stack owns its namespace and deletes it on destroy; use a namespace of its own such as ovn-kubernetes`,
        );
}

const OVNKUBE_MODE = "with kubernetes.enabled (ovnkube mode)";

/** What ovnkube's gateway supports: a shared NIC on an OVS bridge, with SNAT to the node's address. */
function checkOvnkubeGateway(
    p: string,
    g: NonNullable<StackConfigInput["nodes"][number]["gateway"]>,
    add: (path: string, message: string) => void,
) {
    if (g.mode !== "shared")
        add(
            `${p}.mode`,
            `"${g.mode}" is not supported ${OVNKUBE_MODE}: the project deploys ovnkube's shared gateway only; use "shared", or set kubernetes.enabled: false for the project's own gateway routers`,
        );
    if ((g.rampoutSubnets ?? []).length > 0)
        add(`${p}.rampoutSubnets`, `not supported ${OVNKUBE_MODE}: ovnkube SNATs every node's pods through that node's own gateway router`);
}

/**
 * ovnkube mode writes privileged DaemonSets and Node annotations: the cluster it writes to is named
 * by `kubeconfig`, or chosen deliberately with kubernetes.useAmbientConfig, never taken silently
 * from whatever the operator's shell points at.
 */
function checkKubernetesCredentials(
    cfg: Defaulted,
    ovnkubeMode: boolean,
    secretsPresent: Set<SecretKey>,
    add: (path: string, message: string) => void,
) {
    const ambient = cfg.kubernetes?.useAmbientConfig === true;
    if (!ovnkubeMode) {
        if (ambient) add("kubernetes.useAmbientConfig", "applies to ovnkube mode only, and kubernetes.enabled is false; remove it");
        return;
    }
    if (!ambient && !secretsPresent.has("kubeconfig"))
        add(
            "kubeconfig",
            `required ${OVNKUBE_MODE} (as a secret): it names the cluster the stack writes to; set it (\`${setSecretCommand("kubeconfig")}\`), or set kubernetes.useAmbientConfig: true to use your own kubeconfig's current context`,
        );
    if (ambient && secretsPresent.has("kubeconfig"))
        add("kubernetes.useAmbientConfig", "true, but kubeconfig is set too: say which cluster the stack writes to once; remove one");
}
