# Inputs: mode, nic, bridge, owner, owner_key, claim, claim_key, state_dir, and the boot entry's
# (boot-entry.sh).
# Undo: the host's addresses and routes go back onto the NIC (shared: whatever the bridge holds
# now; dedicated: what was saved at create), the bridge (and with it the NIC's port) is deleted.
# Only a bridge carrying this move's owner tag is touched: any other is someone else's. A bridge
# another move resource has claimed since (gateway.ts, BRIDGE_CLAIM_KEY) is that one's now: its
# NIC, addresses, piece and boot entry stay.
restore_file=/etc/openvswitch/ovn-k8s-restore-$nic.batch

lock_move
if ovs-vsctl --timeout=10 br-exists "$bridge"; then
    held_by=$(bridge_claim "$bridge")
    if [[ -n $held_by && $held_by != "$claim" && $(bridge_owner "$bridge") == "$owner" ]]; then
        log "OVS bridge $bridge is held by $held_by now: $nic left on it"
        exit 0
    fi
fi
# A move still waiting for its confirmation is undone right here instead.
if [[ -e $(move_file pending) ]]; then
    stop_watcher
    rm -f "$(move_file pending)" "$(move_file undo)" "$(move_file watch)"
fi

if ovs-vsctl --timeout=10 br-exists "$bridge"; then
    bridge_tag=$(bridge_owner "$bridge")
    if [[ $bridge_tag != "$owner" ]]; then
        log "OVS bridge $bridge is not this project's bridge for $nic (external_ids:$owner_key is ${bridge_tag:-absent}, expected $owner): left as it is"
        exit 0
    fi
    if [[ $mode == shared && -e /sys/class/net/$nic ]]; then
        # Addresses first, bridge second: the SSH session over them keeps a path throughout.
        held=$(addresses "$bridge")
        back=$(address_lines replace "$nic" <<<"$held"; route_lines replace "$nic" <<<"$(static_routes "$bridge")"; delete_address_lines "$bridge" <<<"$held")
        if [[ -n ${back//$'\n'/} ]]; then apply_lines "move the addresses and routes of $bridge back to $nic" "$back" || die "could not move the addresses of $bridge back to $nic; nothing removed"; fi
    fi
    ovs-vsctl --timeout=10 --if-exists del-br "$bridge"
fi
# The kernel takes the NIC's frames again (see the create script's userspace datapath case).
if command -v nft >/dev/null && nft list table netdev "ovn-k8s-$nic" >/dev/null 2>&1; then
    nft delete table netdev "ovn-k8s-$nic"
fi
if [[ -e /sys/class/net/$nic ]]; then
    ip link set dev "$nic" up
    if [[ $mode == dedicated && -s $restore_file ]]; then
        # Files saved before IPv6 support hold IPv4 batch lines without a family.
        apply_lines "restore $nic from $restore_file" "$(awk '/^-[46] / { print; next } NF { print "-4 " $0 }' "$restore_file")" ||
            die "could not restore $nic from $restore_file (kept for another try)"
    fi
    wait_for_dad "$nic"
fi
rm -f "$restore_file"
# The boot entry forgets the move, and goes when nothing else is left for it.
rm -f "$(piece_path "nic-$nic")" "$(piece_path "nic-$nic").next"
boot_entry_remove_unused
log "gateway bridge $bridge removed, $nic restored"
