// JSON Schema of the `ovn-kubernetes:` stack configuration. It documents every field; ajv
// enforces it and fills defaults. Value patterns come from the shared table
// (../values), enumerations from ./types; rules that need CIDR arithmetic live in
// ../plan/checks because JSON Schema cannot express them. The descriptions are markdown and make the
// settings table of docs/configuration.md (`npm run gen:config-docs`), so links are relative to docs/.

import { PATTERNS, type IpFamily, type PatternName } from "../values";
import { FAMILY_DEFAULTS } from "./families";
import { DatapathType, EncapType, GatewayMode, OsFamily, OvnProtocol, Role, valuesOf } from "./types";
import { DEFAULT_OVN_SOURCE, OvnSource } from "./ovnSource";
import { DEFAULT_OVNKUBE_ARCHITECTURE, DEFAULT_OVNKUBE_VERSION, OVNKUBE_ARCHITECTURES, OVNKUBE_VERSIONS } from "./releases";
import {
    DEFAULT_OVNKUBE_GATEWAY_MODE,
    EGRESS_IP_HEALTH_CHECK,
    FEATURE_KEYS,
    FEATURES,
    featureDefault,
    type FeatureKey,
    OvnkubeGatewayMode,
} from "./features";

/** A string field checked against the shared table, so that later layers accept what passes here. */
const text = <N extends PatternName>(name: N) => ({ type: "string", pattern: PATTERNS[name].source }) as const;
const IPV4 = text("ipv4");
const CIDR4 = text("cidr");
const IFNAME = text("ifname");
const PORT = { type: "integer", minimum: 1, maximum: 65535 } as const;
const IP = text("ip");

/** A range: one CIDR, or one per address family joined by a comma (dual stack, the primary first), as the chart writes them. */
const perFamilyCidr = <D extends string>(description: D) => ({ ...text("ipCidrs"), description }) as const;
/** The defaults of a per-family range, for its description. */
const defaults = (d: Record<IpFamily, string>) => `default ${d.ipv4} and ${d.ipv6}`;

/** One boolean per feature of ./features, with its description and the chart's default. */
const featureProperties = Object.fromEntries(
    FEATURE_KEYS.map((k) => [
        k,
        {
            type: "boolean",
            default: featureDefault(k),
            description: `${FEATURES[k].description} (--${FEATURES[k].flag}; ${FEATURES[k].since} and later)`,
        },
    ]),
) as { [K in FeatureKey]: { type: "boolean"; default: boolean; description: string } };

/** A Pulumi secret, given as its text or in the stack file's `secure:` form. */
const secret = <D extends string>(what: D) =>
    ({
        description: `${what}; a Pulumi secret: \`pulumi config set --secret\``,
        oneOf: [
            { type: "string", minLength: 1 },
            { type: "object", properties: { secure: { type: "string", minLength: 1 } }, required: ["secure"], additionalProperties: false },
        ],
    }) as const;

const gateway = {
    type: "object",
    description:
        "this node's gateway (gateway-init). In ovnkube mode every node is a gateway: ovnkube-node uses this bridge, else the `netdev` tunnel bridge, else the NIC of its default route",
    properties: {
        mode: {
            enum: valuesOf(GatewayMode),
            description: "dedicated: the NIC belongs to OVN; shared: it is moved onto an OVS bridge (ovnkube mode: shared only)",
        },
        interface: { ...IFNAME, description: "the physical NIC" },
        bridge: { ...IFNAME, description: "OVS bridge carrying the NIC (default br<interface>)" },
        physicalIp: { ...CIDR4, description: "the gateway's external address with prefix, e.g. 10.33.74.138/24" },
        defaultGateway: { ...IPV4, description: "next hop of 0.0.0.0/0 out of the gateway router" },
        rampoutSubnets: {
            type: "array",
            items: CIDR4,
            uniqueItems: true,
            default: [],
            description: "cluster CIDRs pinned to this gateway (policy src-ip routes); Pulumi mode only",
        },
    },
    required: ["mode", "interface", "physicalIp", "defaultGateway"],
    additionalProperties: false,
} as const;

const vtep = {
    type: "object",
    description:
        "role `vtep` only, Pulumi mode: the hardware VTEP switch this host emulates with ovs-vtep, bound to OVN by ovn-controller-vtep ([VTEP gateways](vtep.md))",
    properties: {
        physicalSwitch: {
            ...IFNAME,
            description: "the physical switch's name in the VTEP database and its OVS bridge (default: the node's name)",
        },
        ports: {
            type: "array",
            minItems: 1,
            description: "the switch's ports facing physical servers",
            items: {
                type: "object",
                properties: {
                    name: { ...IFNAME, description: "the host's NIC" },
                    bindings: {
                        type: "array",
                        description:
                            "the port's VLANs, each joined to a logical switch (`vtep-ctl bind-ls`); none: the port is bound to nothing",
                        items: {
                            type: "object",
                            properties: {
                                vlan: { type: "integer", minimum: 0, maximum: 4094, description: "VLAN id (0: untagged frames)" },
                                logicalSwitch: { ...text("nodeName"), description: "the Kubernetes node whose logical switch it joins" },
                            },
                            required: ["vlan", "logicalSwitch"],
                            additionalProperties: false,
                        },
                    },
                },
                required: ["name", "bindings"],
                additionalProperties: false,
            },
        },
    },
    required: ["ports"],
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
            description:
                "pinned SSH host key line (`ssh-keyscan -t ed25519 <address>`), verified at every SSH connection; fingerprints are refused",
        },
        roles: {
            type: "array",
            items: { enum: valuesOf(Role) },
            minItems: 1,
            uniqueItems: true,
            description:
                "central (on 1, 3 or 5 nodes): OVN NB/SB and northd; master/node: a Kubernetes node with its logical switch; gateway: gateway-init; vtep: a VTEP gateway, alone ([VTEP gateways](vtep.md))",
        },
        tunnelIp: { ...IP, description: "ovn-encap-ip, IPv4 or IPv6 (default: address when it is an IP address)" },
        nodeIp: {
            ...text("ips"),
            description:
                "ovnkube mode: the node's addresses, one per family in the order of clusterSubnet joined by a comma, as the kubelet's `--node-ip` (default: tunnelIp; required in dual stack)",
        },
        tunnelInterface: { ...IFNAME, description: "the NIC holding tunnelIp; with datapathType netdev it moves onto OVS bridge br<NIC>" },
        subnet: perFamilyCidr("pinned node subnet, one per family of clusterSubnet (default: allocated from clusterSubnet)"),
        os: { enum: valuesOf(OsFamily), default: "debian", description: "package family" },
        datapathType: { enum: valuesOf(DatapathType), description: "OVS datapath (default: the cluster's datapathType)" },
        gateway,
        vtep,
        egressAssignable: {
            type: "boolean",
            description:
                "ovnkube mode: this Kubernetes node's gateway router may hold egress IPs (label k8s.ovn.org/egress-assignable); needs ovnkube.features.egressIp",
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
        clusterSubnet: perFamilyCidr(
            "the pod network, split into node subnets: one CIDR, or an IPv4 and an IPv6 CIDR joined by a comma for dual stack (the first is the primary family); its families are the cluster's",
        ),
        hostSubnetLength: {
            type: "integer",
            minimum: 8,
            maximum: 29,
            description: `prefix length of each IPv4 node subnet (default ${FAMILY_DEFAULTS.hostSubnetLength.ipv4}); IPv6 node subnets are /${FAMILY_DEFAULTS.hostSubnetLength.ipv6}, the only length ovnkube takes`,
        },
        serviceSubnet: perFamilyCidr("Kubernetes service CIDR, one per family of clusterSubnet"),
        joinSubnet: perFamilyCidr(`links the cluster router to the gateway routers (${defaults(FAMILY_DEFAULTS.joinSubnet)})`),
        transitSubnet: perFamilyCidr(
            `interconnect: the transit switch joining the zones' cluster routers, one address per node id (${defaults(FAMILY_DEFAULTS.transitSubnet)})`,
        ),
        masqueradeSubnet: perFamilyCidr(
            `ovnkube mode: the hosts' masquerade addresses on every node's gateway bridge (${defaults(FAMILY_DEFAULTS.masqueradeSubnet)}, the chart's)`,
        ),
        encapType: {
            enum: valuesOf(EncapType),
            default: "geneve",
            description:
                "ovn-encap-type (ovnkube mode: `geneve`; `stt` is refused: current OVS has none); fixed once the cluster runs ([changes](day2.md#changes-on-a-running-cluster))",
        },
        mtu: {
            type: "integer",
            minimum: 576,
            maximum: 9216,
            default: 1400,
            description:
                "pod and management port MTU; `mtu` + 58 ≤ the underlay MTU with geneve ([changing it](day2.md#changes-on-a-running-cluster))",
        },
        datapathType: {
            enum: valuesOf(DatapathType),
            default: "system",
            description: "OVS datapath: kernel (system) or userspace (netdev)",
        },
        apiServer: {
            type: "object",
            description: "the Kubernetes API server",
            properties: {
                url: {
                    ...text("apiServerUrl"),
                    description:
                        "http://host:port or https://host[:port] (ConfigMap `k8s_apiserver`); Pulumi mode writes it to the chassis, and with `https://` needs the secrets `k8sApiToken` and `k8sCaCertificate`",
                },
            },
            required: ["url"],
            additionalProperties: false,
        },
        ovnTransport: {
            type: "object",
            description: "how the OVN databases listen and are reached",
            properties: {
                protocol: {
                    enum: valuesOf(OvnProtocol),
                    default: "tcp",
                    description:
                        "`ssl` needs the secrets `ovnSslPrivateKey`, `ovnSslCertificate`, `ovnSslCaCertificate`; with `tcp` NB and SB listen unencrypted (warned about)",
                },
                nbPort: { ...PORT, default: 6641, description: "the NB database's port" },
                sbPort: { ...PORT, default: 6642, description: "the SB database's port" },
                nbRaftPort: {
                    ...PORT,
                    default: 6643,
                    description: "raft port of the clustered NB between centrals (several centrals only)",
                },
                sbRaftPort: {
                    ...PORT,
                    default: 6644,
                    description: "raft port of the clustered SB between centrals (several centrals only)",
                },
            },
            default: {},
            additionalProperties: false,
        },
        ssh: {
            type: "object",
            description: "how the hosts are logged in to, unless a node says otherwise",
            properties: {
                user: { ...text("sshUser"), default: "root", description: "SSH user (root: the host scripts use no sudo)" },
                port: { ...PORT, default: 22, description: "SSH port" },
                insecureIgnoreHostKey: { type: "boolean", default: false, description: "accept any host key (refused unless `lab: true`)" },
            },
            default: {},
            additionalProperties: false,
        },
        packages: {
            type: "object",
            description: "what the hosts' package step installs (apt/dnf)",
            properties: {
                openvswitchVersion: { ...text("packageVersion"), description: "pinned Open vSwitch version" },
                ovnVersion: { ...text("packageVersion"), description: "pinned OVN version" },
                repository: {
                    type: "object",
                    description: "an extra apt/dnf repository",
                    properties: {
                        name: { ...text("repoName"), description: "the repository's name" },
                        url: { ...text("repoUrl"), description: "the repository's URL" },
                        apt: {
                            type: "object",
                            description: "apt only: where in the repository",
                            properties: {
                                suite: { ...text("aptSuite"), description: "the apt suite" },
                                components: { ...text("aptComponents"), description: "the apt components" },
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
            description: "ovnkube mode or Pulumi mode, see [who writes what](modes.md#two-modes-who-writes-what)",
            properties: {
                namespace: {
                    ...text("nodeName"),
                    default: "ovn-kubernetes",
                    description: "the namespace of the ovnkube objects; the stack owns it (created and deleted with it)",
                },
                enabled: {
                    type: "boolean",
                    default: true,
                    description:
                        "ovnkube mode (true: deploy the ovnkube objects) or Pulumi mode (false); ovnkube mode needs the secret `kubeconfig`, or `useAmbientConfig`",
                },
                useAmbientConfig: {
                    type: "boolean",
                    default: false,
                    description:
                        "ovnkube mode without `kubeconfig`: write to the cluster the operator's own kubeconfig points at ($KUBECONFIG or ~/.kube/config, its current context; the stack output `kubernetesServer` names the server)",
                },
            },
            default: {},
            additionalProperties: false,
        },
        allowPublicClusterRanges: {
            type: "boolean",
            default: false,
            description:
                "clusterSubnet and serviceSubnet may be public address space (the stack's own): every node routes them into the cluster",
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
                version: {
                    enum: [...OVNKUBE_VERSIONS],
                    default: DEFAULT_OVNKUBE_VERSION,
                    description:
                        "the ovn-kubernetes release line (upstream maintains the two newest; [supported versions](#supported-versions))",
                },
                architecture: {
                    enum: [...OVNKUBE_ARCHITECTURES],
                    default: DEFAULT_OVNKUBE_ARCHITECTURE,
                    description:
                        "interconnect: a zone (local NB, SB, northd) per node, no `central` role; centralized: one NB/SB on 1, 3 or 5 centrals, deprecated upstream",
                },
                image: {
                    ...text("image"),
                    description:
                        "ovnkube container image (default: the release's `ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:release-<version>`)",
                },
                allowMovingImageTag: {
                    type: "boolean",
                    default: false,
                    description:
                        "run an image whose tag follows a branch (latest, master) instead of the release: each node pulls whatever was pushed last",
                },
                crdMirror: {
                    ...text("crdMirror"),
                    description:
                        "an `https://` or `file:///` directory holding the release's CRD files under their upstream names, read instead of upstream (air-gapped clusters)",
                },
                identity: {
                    type: "object",
                    description:
                        "ovnkube-identity: per-node client certificates and the admission webhook holding each node to its own objects",
                    properties: {
                        enabled: { type: "boolean", default: true, description: "node identities and their webhook" },
                        webhookAddress: {
                            ...text("host"),
                            default: "localhost",
                            description:
                                "where the API server reaches the webhook: localhost (every API server on a master) or a master node's address",
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
                    description:
                        "ovnkube's gateway mode (--gateway-mode): shared routes egress through OVN's gateway router, local through the host's routing table",
                },
                ipsec: {
                    type: "boolean",
                    default: false,
                    description:
                        "interconnect: IPsec (ESP) for the Geneve traffic between nodes: NB_Global ipsec in every zone, the distribution's openvswitch-ipsec on every chassis, certificates from a CA the stack keeps as a secret (docs/features.md#ipsec)",
                },
                ovnSource: {
                    enum: valuesOf(OvnSource),
                    default: DEFAULT_OVN_SOURCE,
                    description:
                        "where each node's OVN runs: packages (the hosts' distribution packages, NB/SB/northd and ovn-controller as host daemons) or image (as upstream's chart runs them: containers of the ovnkube-node pod from ovnkube.image; the hosts get Open vSwitch only) (docs/modes.md#where-ovn-comes-from)",
                },
                imageOvnVersion: {
                    type: "string",
                    pattern: "^[0-9]+\\.[0-9]+(\\.[0-9]+)?$",
                    description:
                        "ovnSource image: the OVN version ovnkube.image carries, e.g. 26.03 (default: the release image's, 25.09.0); required with another image, whose OVN the project cannot read",
                },
                features: {
                    type: "object",
                    description:
                        "the release's optional features for the default network; unset ones take the chart's value at the release's tag (docs/features.md)",
                    properties: {
                        ...featureProperties,
                        egressIpHealthCheckPort: {
                            type: "integer",
                            minimum: 0,
                            maximum: 65535,
                            default: EGRESS_IP_HEALTH_CHECK.chartDefault,
                            description:
                                "EgressIP node reachability over gRPC on this TCP port of each node's management address (--egressip-node-healthcheck-port); 0: the legacy port-9 check",
                        },
                    },
                    default: {},
                    additionalProperties: false,
                },
            },
            default: {},
            additionalProperties: false,
        },
        sshPrivateKey: secret("the SSH private key that logs in to every host"),
        k8sApiToken: secret("https API servers: the token ovnkube authenticates with"),
        k8sCaCertificate: secret("https API servers: the CA certificate (PEM) the API server's certificate is checked against"),
        ovnSslPrivateKey: secret("ovnTransport.protocol ssl: the OVN databases' private key (PEM)"),
        ovnSslCertificate: secret("ovnTransport.protocol ssl: the OVN databases' certificate (PEM)"),
        ovnSslCaCertificate: secret("ovnTransport.protocol ssl: the CA certificate (PEM) every OVN peer is checked against"),
        kubeconfig: secret("ovnkube mode: the kubeconfig of the cluster the Kubernetes objects go to"),
    },
    required: ["nodes", "clusterSubnet", "serviceSubnet", "apiServer", "sshPrivateKey"],
    additionalProperties: false,
} as const;
