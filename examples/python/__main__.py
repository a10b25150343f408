"""The seeds' three-node example in Pulumi mode (the project's stacks/Pulumi.dev.yaml) in Python.

pulumi_cluster is the SDK `pulumi package add` generates from the package's schema; the cluster
checks its arguments itself and stops the program naming the bad setting, as `npm run validate`.
"""
import pulumi
import pulumi_cluster as ovn

config = pulumi.Config()

cluster = ovn.OvnKubernetesCluster(
    "ovn",
    cluster_subnet="192.168.0.0/16",
    host_subnet_length=24,
    service_subnet="172.30.0.0/16",
    join_subnet="100.64.0.0/16",
    encap_type=ovn.EncapType.GENEVE,
    mtu=1400,
    api_server=ovn.ApiServerConfigArgs(url="http://10.0.0.10:8080"),
    ovn_transport=ovn.PartialOvnTransportConfigArgs(protocol=ovn.OvnProtocol.TCP),
    kubernetes=ovn.PartialKubernetesConfigArgs(enabled=False),
    nodes=[
        ovn.NodeConfigArgs(
            name="kube-master",
            address="10.0.0.10",
            roles=[ovn.Role.CENTRAL, ovn.Role.MASTER],
            subnet="192.168.1.0/24",
            host_key="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAII71TdFIWPdW1BL4JS1tIcUqqJYhihYXogEh7sOaXM1n kube-master",
        ),
        ovn.NodeConfigArgs(
            name="kube-minion1",
            address="10.0.0.11",
            roles=[ovn.Role.NODE],
            subnet="192.168.2.0/24",
            host_key="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINvwItyFMbqDFXQMNEs5/DzUqQM6kiqrqGjmnC8mUASc kube-minion1",
        ),
        ovn.NodeConfigArgs(
            name="kube-minion2",
            address="10.0.0.12",
            roles=[ovn.Role.NODE, ovn.Role.GATEWAY],
            host_key="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOdkkaUuOjQYNc91VnlCp1gayjD3841u/IcU7a8hdkE8 kube-minion2",
            gateway=ovn.GatewayConfigArgs(
                mode=ovn.GatewayMode.DEDICATED,
                interface="eth1",
                physical_ip="10.33.74.138/24",
                default_gateway="10.33.74.253",
            ),
        ),
    ],
    ssh_private_key=config.require_secret("sshPrivateKey"),
)

pulumi.export("nodeSubnets", cluster.node_subnets)
pulumi.export("nbAddress", cluster.nb_address)
