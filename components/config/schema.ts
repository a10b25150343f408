// JSON Schema of the `ovn-kubernetes:` stack configuration. It documents every field; ajv
// (with ajv-formats) enforces it and fills defaults. Rules that need CIDR arithmetic live in
// ./semantic.ts because JSON Schema cannot express them.

/** Linux interface names: at most 15 characters, no '/', whitespace or ':' (IFNAMSIZ and dev_valid_name). */
export const IFNAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_.-]{0,14}$";
/** Kubernetes node names as used here: a lower-case DNS-1123 label. */
export const NODE_NAME_PATTERN = "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$";
export const CIDR4_PATTERN = "^[0-9]{1,3}(\\.[0-9]{1,3}){3}/[0-9]{1,2}$";
/**
 * The image ovn-kubernetes' CI publishes from its release-1.0 branch (v1.0.x, linux/amd64 and
 * arm64): the ovnkube whose behaviour this program is built and tested against.
 */
export const DEFAULT_OVNKUBE_IMAGE = "ghcr.io/ovn-org/ovn-kubernetes/ovn-kube-ubuntu:release-1.0";
const IPV4 = { type: "string", format: "ipv4" } as const;
const CIDR4 = { type: "string", pattern: CIDR4_PATTERN } as const;
/**
 * Host keys: an OpenSSH public key line, nothing a shell could misread. The SHA256 fingerprint form
 * passes here only so that ./semantic.ts can refuse it with the reason and the ssh-keyscan hint.
 */
const HOST_KEY_PATTERN = "^(ssh-(ed25519|rsa)|ecdsa-sha2-nistp(256|384|521)) [A-Za-z0-9+/=]+( [A-Za-z0-9@._-]*)?$|^SHA256:[A-Za-z0-9+/]{43}=?$";
/** Package versions and repository names: letters, digits and the separators distributions use. */
const VERSION_PATTERN = "^[A-Za-z0-9][A-Za-z0-9.+~:_-]*$";

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
        mode: { enum: ["dedicated", "shared"], description: "dedicated: the NIC belongs to OVN; shared: it is moved onto an OVS bridge" },
        interface: { type: "string", pattern: IFNAME_PATTERN, description: "the physical NIC" },
        bridge: { type: "string", pattern: IFNAME_PATTERN, description: "OVS bridge carrying the NIC (default br<interface>)" },
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
        name: { type: "string", pattern: NODE_NAME_PATTERN, maxLength: 63, description: "Kubernetes node name (lower-case DNS-1123 label)" },
        address: {
            type: "string",
            anyOf: [{ format: "ipv4" }, { format: "hostname" }],
            description: "SSH address of the host",
        },
        port: { type: "integer", minimum: 1, maximum: 65535, description: "SSH port (default ssh.port)" },
        user: { type: "string", pattern: "^[a-z_][a-z0-9_-]{0,31}$", description: "SSH user (default ssh.user)" },
        hostKey: {
            type: "string",
            pattern: HOST_KEY_PATTERN,
            description: "pinned SSH host key line (`ssh-keyscan -t ed25519 <address>`), verified at every SSH connection; fingerprints are refused",
        },
        roles: {
            type: "array",
            items: { enum: ["central", "master", "node", "gateway"] },
            minItems: 1,
            uniqueItems: true,
            description: "central: OVN NB/SB and northd; master/node: a Kubernetes node with its logical switch; gateway: gateway-init",
        },
        tunnelIp: { ...IPV4, description: "ovn-encap-ip (default: address when it is an IPv4 address)" },
        tunnelInterface: { type: "string", pattern: IFNAME_PATTERN, description: "NIC holding tunnelIp; moved onto OVS bridge br<NIC> with datapathType netdev" },
        subnet: { ...CIDR4, description: "pinned node subnet (default: allocated from clusterSubnet)" },
        os: { enum: ["debian", "rhel"], default: "debian", description: "package family" },
        datapathType: { enum: ["system", "netdev"], description: "OVS datapath (default: the cluster's datapathType)" },
        gateway,
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
        joinSubnet: { ...CIDR4, default: "100.64.0.0/16", description: "links the cluster router to the gateway routers" },
        encapType: { enum: ["geneve", "stt", "vxlan"], default: "geneve", description: "ovn-encap-type" },
        mtu: { type: "integer", minimum: 576, maximum: 9216, default: 1400, description: "pod and management port MTU" },
        datapathType: { enum: ["system", "netdev"], default: "system", description: "OVS datapath: kernel (system) or userspace (netdev)" },
        apiServer: {
            type: "object",
            properties: {
                url: { type: "string", pattern: "^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?/?$", description: "http://host:port or https://host[:port]" },
            },
            required: ["url"],
            additionalProperties: false,
        },
        ovnTransport: {
            type: "object",
            properties: {
                protocol: { enum: ["tcp", "ssl"], default: "tcp" },
                nbPort: { type: "integer", minimum: 1, maximum: 65535, default: 6641 },
                sbPort: { type: "integer", minimum: 1, maximum: 65535, default: 6642 },
            },
            default: {},
            additionalProperties: false,
        },
        ssh: {
            type: "object",
            properties: {
                user: { type: "string", pattern: "^[a-z_][a-z0-9_-]{0,31}$", default: "root" },
                port: { type: "integer", minimum: 1, maximum: 65535, default: 22 },
                insecureIgnoreHostKey: { type: "boolean", default: false, description: "accept any host key (labs only)" },
            },
            default: {},
            additionalProperties: false,
        },
        packages: {
            type: "object",
            properties: {
                openvswitchVersion: { type: "string", pattern: VERSION_PATTERN },
                ovnVersion: { type: "string", pattern: VERSION_PATTERN },
                repository: {
                    type: "object",
                    properties: {
                        name: { type: "string", pattern: "^[a-z0-9][a-z0-9._-]{0,63}$" },
                        url: { type: "string", pattern: "^https?://[A-Za-z0-9._~:/%+-]+$" },
                        apt: {
                            type: "object",
                            properties: {
                                suite: { type: "string", pattern: "^[A-Za-z0-9._/-]+$" },
                                components: { type: "string", pattern: "^[A-Za-z0-9._-]+( [A-Za-z0-9._-]+)*$" },
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
                namespace: { type: "string", pattern: NODE_NAME_PATTERN, default: "ovn-kubernetes" },
                enabled: { type: "boolean", default: true, description: "deploy the ovnkube objects" },
            },
            default: {},
            additionalProperties: false,
        },
        ovnkubeImage: {
            type: "string",
            pattern: "^[A-Za-z0-9][A-Za-z0-9._/:@-]*$",
            default: DEFAULT_OVNKUBE_IMAGE,
            description: "ovnkube container image (default: ovn-kubernetes' release-1.0 image)",
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
