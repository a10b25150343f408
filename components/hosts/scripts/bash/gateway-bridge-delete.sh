# Inputs: mode, nic, bridge.
# Undo: the host's addresses and routes go back onto the NIC (shared: whatever the bridge holds
# now; dedicated: what was saved at create), the bridge (and with it the NIC's port) is deleted.
restore_file=/etc/openvswitch/ovn-k8s-restore-$nic.batch

if [[ $mode == shared && -e /sys/class/net/$bridge && -e /sys/class/net/$nic ]]; then
    # Addresses first, bridge second: the SSH session over them keeps a path throughout.
    move_ipv4 "$bridge" "$nic"
fi
ovs-vsctl --timeout=10 --if-exists del-br "$bridge"
# The kernel takes the NIC's frames again (see the create script's userspace datapath case).
if command -v nft >/dev/null && nft list table netdev "ovn-k8s-$nic" >/dev/null 2>&1; then
    nft delete table netdev "ovn-k8s-$nic"
fi
if [[ -e /sys/class/net/$nic ]]; then
    ip link set dev "$nic" up
    if [[ $mode == dedicated && -s $restore_file ]]; then
        while read -r line; do safe_ip_words "$line"; done <"$restore_file"
        ip -batch "$restore_file"
    fi
fi
rm -f "$restore_file"
log "gateway bridge $bridge removed, $nic restored"
