# Inputs: mode (shared|dedicated), nic, bridge, datapath_type.
# shared: the NIC joins OVS bridge `bridge` and the host's IPv4 addresses and static routes move
# from the NIC to the bridge's local port, which carries the NIC's MAC (other_config:hwaddr): the
# host keeps its identity on the wire while the OVN gateway router shares it (see gateway flows).
# dedicated: the NIC joins the bridge and leaves the host stack; its addresses are flushed after
# being saved for the undo.
# Re-runs converge: whatever is still on the NIC is moved or saved, nothing else changes.
restore_file=/etc/openvswitch/ovn-k8s-restore-$nic.batch

[[ -e /sys/class/net/$nic ]] || die "interface $nic does not exist"
nic_mac=$(cat "/sys/class/net/$nic/address")
[[ $nic_mac =~ ^[0-9a-f]{2}(:[0-9a-f]{2}){5}$ ]] || die "interface $nic has no Ethernet address"

owner=$(ovs-vsctl --timeout=10 port-to-br "$nic" 2>/dev/null || true)
[[ -z $owner || $owner == "$bridge" ]] || die "interface $nic is already a port of OVS bridge $owner"

# fail_mode standalone: the bridge forwards NORMAL on its own before and without any controller.
ovs-vsctl --timeout=10 -- --may-exist add-br "$bridge" \
    -- set Bridge "$bridge" fail_mode=standalone "datapath_type=$datapath_type" \
    "other_config:hwaddr=\"$nic_mac\"" "external_ids:bridge-id=\"$bridge\""

if [[ $mode == dedicated && ! -s $restore_file && -n $(global_addrs "$nic") ]]; then
    # Saved before anything changes: the undo restores exactly this.
    copy_ipv4_batch "$nic" "$nic" >"$restore_file.tmp"
    mv -f "$restore_file.tmp" "$restore_file"
fi

if [[ $datapath_type == netdev ]]; then
    # The userspace datapath reads a kernel NIC through a packet socket, which sees frames before
    # the kernel's ingress hook; the kernel's own IP stack would otherwise take them too and answer
    # (TCP resets, port unreachables) for the addresses that now live on the bridge.
    command -v nft >/dev/null || die "nft (package nftables) is needed for the userspace datapath on $nic"
    nft -f - <<NFT
table netdev ovn-k8s-$nic
delete table netdev ovn-k8s-$nic
table netdev ovn-k8s-$nic {
    chain ingress {
        type filter hook ingress device "$nic" priority 0; policy drop;
    }
}
NFT
fi
ovs-vsctl --timeout=10 -- --may-exist add-port "$bridge" "$nic"
ip link set dev "$nic" up
wait_for 30 "bridge $bridge to appear" test -e "/sys/class/net/$bridge"

if [[ $mode == shared ]]; then
    move_ipv4 "$nic" "$bridge"
else
    ip -4 addr flush dev "$nic" scope global
fi
log "gateway $mode: $nic in $bridge"
# Last stdout line: the NIC's MAC, which the gateway router's external port must carry.
printf '%s\n' "$nic_mac"
