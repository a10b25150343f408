// JSON Schema of the `ovn-kubernetes:` stack configuration. It documents every field; ajv
// enforces it and fills defaults. Value patterns come from the shared table
// (../values), enumerations from ./types; rules that need CIDR arithmetic live in
// ../plan/checks because JSON Schema cannot express them.

import { PATTERNS, type PatternName } from "../values";
import { DatapathType, EncapType, GatewayMode, OsFamily, OvnProtocol, Role, valuesOf } from "./types";
import { DEFAULT_OVNKUBE_ARCHITECTURE, DEFAULT_OVNKUBE_VERSION, OVNKUBE_ARCHITECTURES, OVNKUBE_VERSIONS } from "../kube/releases";
import { DEFAULT_OVNKUBE_GATEWAY_MODE, EGRESS_IP_HEALTH_CHECK, FEATURE_KEYS, FEATURES, type FeatureKey, OvnkubeGatewayMode } from "../kube/features";

/** Upstream's defaults (go-controller/pkg/config/config.go, the chart's values-single-node-zone.yaml). */
export const DEFAULT_JOIN_SUBNET = "100.64.0.0/16";
export const DEFAULT_TRANSIT_SUBNET = "100.88.0.0/16";
export const DEFAULT_MASQUERADE_SUBNET = "169.254.0.0/17";

/** A string field checked against the shared table, so that later layers accept what passes here. */
const text = <N extends PatternName>(name: N) => ({ type: "string", pattern: PATTERNS[name].source }) as const;
const IPV4 = text("ipv4");
const CIDR4 = text("cidr");
const IFNAME = text("ifname");
const PORT = { type: "integer", minimum: 1, maximum: 65535 } as const;

/** One boolean per feature of ../kube/features, with its description and the chart's default. */
const featureProperties = Object.fromEntries(
    FEATURE_KEYS.map((k) => [k, { type: "boolean", default: FEATURES[k].chartDefault, description: `${FEATURES[k].description} (--${FEATURES[k].flag}; ${FEATURES[k].since} and later)` }]),
) as { [K in FeatureKey]: { type: "boolean"; default: boolean; description: string } };

const secret = {
    description: "A Pulumi secret: `pulumi config set --secret`.",
    oneOf: [
        { type: "string", minLength: 1 },
        { type: "object", properties: { secure: { type: "string", minLength: 1 } }, required: ["secure"], additionalProperties: false },
    ],
} as const;

const gateway = {
    type: "object",
    description: "gateway-init of this node.",
    properties: {
        mode: { enum: valuesOf(GatewayMode), description: "dedicated: the NIC belongs to OVN; shared: it is moved onto an OVS bridge" },
        interface: { ...IFNAME, description: "the physical NIC" },
        bridge: { ...IFNAME, description: "OVS bridge carrying the NIC (default br<interface>)" },
        physicalIp: { ...CIDR4, description: "the gateway's external address with prefix, e.g. 10.33.74.138/24" },
        defaultGateway: { ...IPV4, description: "next hop of 0.0.0.0/0 out of the gateway router" },
        rampoutSubnets: { type: "array", items: CIDR4, uniqueItems: true, default: [], description: "cluster CIDRs pinned to this gateway (policy src-ip routes)" },
    },
    required: ["mode", "interface", "physicalIp", "defaultGateway"],
    additionalProperties: false,
} as const;

const node = {
    type: "object",
    properties: {
        name: { ...text("nodeName"), description: "Kubernetes node name (lower-case DNS-1123 label)" },
        address: {
            ...text("host"),
            description: "SSH address of the host (IPv4 address or DNS name)",
        },
        port: { ...PORT, description: "SSH port (default ssh.port)" },
        user: { ...text("sshUser"), description: "SSH user (default ssh.user)" },
        hostKey: {
            ...text("hostKeyPin"),
            description: "pinned SSH host key line (`ssh-keyscan -t ed25519 <address>`), verified at every SSH connection; fingerprints are refused",
        },
        roles: {
            type: "array",
            items: { enum: valuesOf(Role) },
            minItems: 1,
            uniqueItems: true,
            description: "central: OVN NB/SB and northd; master/node: a Kubernetes node with its logical switch; gateway: gateway-init",
        },
        tunnelIp: { ...IPV4, description: "ovn-encap-ip (default: address when it is an IPv4 address)" },
        tunnelInterface: { ...IFNAME, description: "NIC holding tunnelIp; moved onto OVS bridge br<NIC> with datapathType netdev" },
        subnet: { ...CIDR4, description: "pinned node subnet (default: allocated from clusterSubnet)" },
        os: { enum: valuesOf(OsFamily), default: "debian", description: "package family" },
        datapathType: { enum: valuesOf(DatapathType), description: "OVS datapath (default: the cluster's datapathType)" },
        gateway,
        egressAssignable: {
            type: "boolean",
            description: "ovnkube mode: this Kubernetes node's gateway router may hold egress IPs (label k8s.ovn.org/egress-assignable); needs ovnkube.features.egressIp",
        },
    },
    required: ["name", "address", "roles"],
    additionalProperties: false,
} as const;

export const stackConfigSchema = {
    $id: "ovn-kubernetes-stack-config",
    type: "object",
    properties: {
        nodes: { type: "array", items: node, minItems: 1, description: "every machine of the cluster" },
        clusterSubnet: { ...CIDR4, description: "the pod network, split into node subnets" },
        hostSubnetLength: { type: "integer", minimum: 8, maximum: 29, default: 24, description: "prefix length of each node subnet" },
        serviceSubnet: { ...CIDR4, description: "Kubernetes service CIDR" },
        joinSubnet: { ...CIDR4, default: DEFAULT_JOIN_SUBNET, description: "links the cluster router to the gateway routers" },
        transitSubnet: {
            ...CIDR4,
            default: DEFAULT_TRANSIT_SUBNET,
            description: "interconnect: the transit switch joining the zones' cluster routers (one address per node id)",
        },
        masqueradeSubnet: {
            ...CIDR4,
            default: DEFAULT_MASQUERADE_SUBNET,
            description: "ovnkube's host masquerade addresses (link-local, on every node's gateway bridge); ovnkube mode",
        },
        encapType: { enum: valuesOf(EncapType), default: "geneve", description: "ovn-encap-type" },
        mtu: { type: "integer", minimum: 576, maximum: 9216, default: 1400, description: "pod and management port MTU" },
        datapathType: { enum: valuesOf(DatapathType), default: "system", description: "OVS datapath: kernel (system) or userspace (netdev)" },
        apiServer: {
            type: "object",
            properties: {
                url: { ...text("apiServerUrl"), description: "http://host:port or https://host[:port]" },
            },
            required: ["url"],
            additionalProperties: false,
        },
        ovnTransport: {
            type: "object",
            properties: {
                protocol: { enum: valuesOf(OvnProtocol), default: "tcp" },
                nbPort: { ...PORT, default: 6641 },
                sbPort: { ...PORT, default: 6642 },
                nbRaftPort: { ...PORT, default: 6643, description: "raft port of the clustered NB between centrals (several centrals only)" },
                sbRaftPort: { ...PORT, default: 6644, description: "raft port of the clustered SB between centrals (several centrals only)" },
            },
            default: {},
            additionalProperties: false,
        },
        ssh: {
            type: "object",
            properties: {
                user: { ...text("sshUser"), default: "root" },
                port: { ...PORT, default: 22 },
                insecureIgnoreHostKey: { type: "boolean", default: false, description: "accept any host key (labs only)" },
            },
            default: {},
            additionalProperties: false,
        },
        packages: {
            type: "object",
            properties: {
                openvswitchVersion: text("packageVersion"),
                ovnVersion: text("packageVersion"),
                repository: {
                    type: "object",
                    properties: {
                        name: text("repoName"),
                        url: text("repoUrl"),
                        apt: {
                            type: "object",
                            properties: {
                                suite: text("aptSuite"),
                                components: text("aptComponents"),
                            },
                            required: ["suite", "components"],
                            additionalProperties: false,
                        },
                    },
                    required: ["name", "url"],
                    additionalProperties: false,
                },
                skip: { type: "boolean", default: false, description: "hosts are prepared by other means" },
            },
            default: {},
            additionalProperties: false,
        },
        kubernetes: {
            type: "object",
            properties: {
                namespace: { ...text("nodeName"), default: "ovn-kubernetes", description: "the namespace of the ovnkube objects; the stack owns it (created and deleted with it)" },
                enabled: { type: "boolean", default: true, description: "deploy the ovnkube objects" },
                useAmbientConfig: {
                    type: "boolean",
                    default: false,
                    description: "ovnkube mode without `kubeconfig`: write to the cluster the operator's own kubeconfig points at ($KUBECONFIG or ~/.kube/config, its current context)",
                },
            },
            default: {},
            additionalProperties: false,
        },
        lab: {
            type: "boolean",
            default: false,
            description: "a throw-away lab: ssh.insecureIgnoreHostKey is expected here and not warned about",
        },
        ovnkube: {
            type: "object",
            description: "the ovn-kubernetes release and architecture ovnkube mode deploys",
            properties: {
                version: { enum: [...OVNKUBE_VERSIONS], default: DEFAULT_OVNKUBE_VERSION, description: "the ovn-kubernetes release line (upstream maintains the two newest)" },
                architecture: {
                    enum: [...OVNKUBE_ARCHITECTURES],
                    default: DEFAULT_OVNKUBE_ARCHITECTURE,
                    description: "interconnect: a zone (local NB, SB, northd) per node; centralized: one NB/SB on the central(s), deprecated upstream",
                },
                image: { ...text("image"), description: "ovnkube container image (default: the release's image)" },
                crdMirror: { ...text("crdMirror"), description: "read the release's CRD files from this directory instead of upstream (air-gapped clusters)" },
                identity: {
                    type: "object",
                    description: "ovnkube-identity: per-node client certificates and the admission webhook holding each node to its own objects",
                    properties: {
                        enabled: { type: "boolean", default: true },
                        webhookAddress: {
                            ...text("host"),
                            default: "localhost",
                            description: "where the API server reaches the webhook: localhost (every API server on a master) or a master node's address",
                        },
                        bootstrapKubeconfig: {
                            ...text("hostPath"),
                            default: "/etc/kubernetes/kubelet.conf",
                            description: "the kubelet's kubeconfig on every node, with which ovnkube-node requests its certificate",
                        },
                    },
                    default: {},
                    additionalProperties: false,
                },
                gatewayMode: {
                    enum: valuesOf(OvnkubeGatewayMode),
                    default: DEFAULT_OVNKUBE_GATEWAY_MODE,
                    description: "ovnkube's gateway mode (--gateway-mode): shared routes egress through OVN's gateway router, local through the host's routing table",
                },
                features: {
                    type: "object",
                    description: "the release's optional features for the default network; unset ones take the chart's value at the release's tag (docs/features.md)",
                    properties: {
                        ...featureProperties,
                        egressIpHealthCheckPort: {
                            type: "integer",
                            minimum: 0,
                            maximum: 65535,
                            default: EGRESS_IP_HEALTH_CHECK.chartDefault,
                            description: "EgressIP node reachability over gRPC on this TCP port of each node's management address (--egressip-node-healthcheck-port); 0: the legacy port-9 check",
                        },
                    },
                    default: {},
                    additionalProperties: false,
                },
            },
            default: {},
            additionalProperties: false,
        },
        sshPrivateKey: secret,
        k8sApiToken: secret,
        k8sCaCertificate: secret,
        ovnSslPrivateKey: secret,
        ovnSslCertificate: secret,
        ovnSslCaCertificate: secret,
        kubeconfig: secret,
    },
    required: ["nodes", "clusterSubnet", "serviceSubnet", "apiServer", "sshPrivateKey"],
    additionalProperties: false,
} as const;
