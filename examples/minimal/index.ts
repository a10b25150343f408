// A program of its own that declares a cluster with the package: the cluster is described in
// code instead of stack config, and only the SSH key comes from config, as a secret:
//   pulumi config set --secret sshPrivateKey < ~/.ssh/id_ed25519
// It is the seeds' three-node example in Pulumi mode (the project's stacks/Pulumi.dev.yaml), so
// it registers the same resources as the project's own index.ts with that stack.
import * as pulumi from "@pulumi/pulumi";
import { OvnKubernetesCluster } from "@ovn-kubernetes-as-code/cluster";

// The component validates its arguments before it registers anything: a bad one stops the
// program with its path, as `npm run validate` names it.
const cluster = new OvnKubernetesCluster("ovn", {
    clusterSubnet: "192.168.0.0/16",
    hostSubnetLength: 24,
    serviceSubnet: "172.30.0.0/16",
    joinSubnet: "100.64.0.0/16",
    encapType: "geneve",
    mtu: 1400,
    apiServer: { url: "http://10.0.0.10:8080" },
    ovnTransport: { protocol: "tcp" },
    kubernetes: { enabled: false },
    nodes: [
        {
            name: "kube-master",
            address: "10.0.0.10",
            roles: ["central", "master"],
            subnet: "192.168.1.0/24",
            hostKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAII71TdFIWPdW1BL4JS1tIcUqqJYhihYXogEh7sOaXM1n kube-master",
        },
        {
            name: "kube-minion1",
            address: "10.0.0.11",
            roles: ["node"],
            subnet: "192.168.2.0/24",
            hostKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINvwItyFMbqDFXQMNEs5/DzUqQM6kiqrqGjmnC8mUASc kube-minion1",
        },
        {
            name: "kube-minion2",
            address: "10.0.0.12",
            roles: ["node", "gateway"],
            hostKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOdkkaUuOjQYNc91VnlCp1gayjD3841u/IcU7a8hdkE8 kube-minion2",
            gateway: { mode: "dedicated", interface: "eth1", physicalIp: "10.33.74.138/24", defaultGateway: "10.33.74.253" },
        },
    ],
    sshPrivateKey: new pulumi.Config().requireSecret("sshPrivateKey"),
});

export const nodeSubnets = cluster.nodeSubnets;
export const nbAddress = cluster.nbAddress;
