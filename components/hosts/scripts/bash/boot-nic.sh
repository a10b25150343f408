# A NIC on its OVS bridge: what the move (gateway-bridge-*.sh) and the boot program
# (boot-apply.sh) both need. Input: owner_key.

# The bridge's owner tag: which NIC move created it. Bridges without our tag are never changed.
bridge_owner() { ovs-vsctl --timeout=10 --if-exists get Bridge "$1" "external_ids:\"$owner_key\"" | tr -d '"'; }


# nic_ingress_filter NIC: the userspace datapath reads a kernel NIC through a packet socket, which
# sees frames before the kernel's ingress hook; the kernel's own IP stack would otherwise take
# them too and answer (TCP resets, port unreachables) for the addresses that now live on the
# bridge. Kernel state: gone at reboot, so the boot entry installs it again.
nic_ingress_filter() {
    nft -f - <<NFT
table netdev ovn-k8s-$1
delete table netdev ovn-k8s-$1
table netdev ovn-k8s-$1 {
    chain ingress {
        type filter hook ingress device "$1" priority 0; policy drop;
    }
}
NFT
}
