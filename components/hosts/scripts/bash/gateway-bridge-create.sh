# Inputs: mode (shared|dedicated), nic, bridge, datapath_type, owner, owner_key, claim, claim_key,
# state_dir, confirm_seconds, and the boot entry's (boot-entry.sh).
# shared: the NIC joins OVS bridge `bridge` and the host's addresses (IPv4 and IPv6) and static
# routes move from the NIC to the bridge's local port, which carries the NIC's MAC
# (other_config:hwaddr): the host keeps its identity on the wire while the OVN gateway router
# shares it (see gateway flows).
# dedicated: the NIC joins the bridge and leaves the host stack; its addresses and routes are
# removed after being saved for the undo.
# The move is a transaction (nic-move.sh): undone on any failure, and undone later unless
# confirmed. Re-runs converge: whatever is still on the NIC is moved, nothing else changes.
# What the bridge holds is staged as the boot entry's piece, which the confirmation makes the
# one a reboot restores (boot-nic.sh).
restore_file=/etc/openvswitch/ovn-k8s-restore-$nic.batch

# nic_piece_stage (inputs: mode, nic, bridge, owner, datapath_type, undo_addrs, undo_routes):
# the move's piece as `<piece>.conf.next`, which the confirmation makes the piece. The bridge
# keeps what an earlier piece gave it plus what this run moved (a bridge made before pieces
# existed: what it holds now), in that order, so the primary IPv4 address stays first.
nic_piece_stage() {
    local piece addrs="" routes="" filter=0
    piece=$(piece_path "nic-$nic")
    if [[ -s $piece ]]; then
        addrs=$(piece_lines address "$piece")
        routes=$(piece_lines route "$piece")
    elif [[ $mode == shared && -e /sys/class/net/$bridge ]]; then
        addrs=$(addresses "$bridge")
        routes=$(static_routes "$bridge")
    fi
    if [[ $mode == shared ]]; then
        addrs=$(printf '%s\n%s\n' "$addrs" "$undo_addrs" | awk 'NF && !seen[$0]++')
        routes=$(printf '%s\n%s\n' "$routes" "$undo_routes" | awk 'NF && !seen[$0]++')
    fi
    if [[ $datapath_type == netdev ]]; then filter=1; fi
    {
        printf 'kind nic-move\nmode %s\nnic %s\nbridge %s\nowner %s\ningress_filter %s\n' "$mode" "$nic" "$bridge" "$owner" "$filter"
        if [[ -n $addrs ]]; then printf 'address %s\n' "${addrs//$'\n'/$'\n'address }"; fi
        if [[ -n $routes ]]; then printf 'route %s\n' "${routes//$'\n'/$'\n'route }"; fi
    } | piece_write "$piece.next"
}

# Checks first: nothing changes unless every one passes.
[[ -e /sys/class/net/$nic ]] || die "interface $nic does not exist"
nic_mac=$(cat "/sys/class/net/$nic/address")
[[ $nic_mac =~ ^[0-9a-f]{2}(:[0-9a-f]{2}){5}$ ]] || die "interface $nic has no Ethernet address"
if ovs-vsctl --timeout=10 br-exists "$bridge"; then
    bridge_tag=$(bridge_owner "$bridge")
    [[ $bridge_tag == "$owner" ]] || die "OVS bridge $bridge exists and is not this project's bridge for $nic (external_ids:$owner_key is ${bridge_tag:-absent}, expected $owner); refusing to change it. Name another bridge in the stack, or, if $bridge really is this gateway's bridge, tag it: ovs-vsctl set Bridge $bridge 'external_ids:\"$owner_key\"=\"$owner\"'"
elif [[ -e /sys/class/net/$bridge ]]; then
    die "$bridge is an existing network interface, not an OVS bridge: name another bridge in the stack"
fi
port_owner=$(ovs-vsctl --timeout=10 port-to-br "$nic" 2>/dev/null || true)
[[ -z $port_owner || $port_owner == "$bridge" ]] || die "interface $nic is already a port of OVS bridge $port_owner"
if [[ $mode == dedicated ]]; then
    # A dedicated NIC leaves the host's IP stack: never the one this SSH session came in on.
    ssh_ip=$(ssh_server_address)
    if [[ -n $ssh_ip ]] && addresses "$nic" | grep -q "^-[46] $ssh_ip/"; then
        die "dedicated gateway NIC $nic carries $ssh_ip, the address this SSH session uses: removing it would lock the host out. Reach the host over another address, or use a shared gateway"
    fi
fi
refuse_distro_network_config "$nic" "$bridge"
if [[ $datapath_type == netdev ]]; then
    command -v nft >/dev/null || die "nft (package nftables) is needed for the userspace datapath on $nic"
fi
for tool in setsid flock; do
    command -v "$tool" >/dev/null || die "$tool (package util-linux) is needed to move $nic safely"
done

lock_move
revert_unconfirmed

undo_addrs=$(addresses "$nic")
undo_routes=$(static_routes "$nic")
move_open=1
trap on_move_exit EXIT

step bridge-add
if ! ovs-vsctl --timeout=10 br-exists "$bridge"; then
    undo_bridge=1
else
    # Another move resource held the bridge (the tunnel bridge of a node that becomes a gateway,
    # or back): from now on this one does, and the other's delete leaves the bridge alone.
    held_by=$(bridge_claim "$bridge")
    if [[ -n $held_by && $held_by != "$claim" ]]; then log "OVS bridge $bridge: taken over from $held_by"; fi
fi
# fail_mode standalone: the bridge forwards NORMAL on its own before and without any controller.
ovs-vsctl --timeout=10 -- --may-exist add-br "$bridge" \
    -- set Bridge "$bridge" fail_mode=standalone "datapath_type=$datapath_type" \
    "other_config:hwaddr=\"$nic_mac\"" "external_ids:bridge-id=\"$bridge\"" "external_ids:\"$owner_key\"=\"$owner\"" "external_ids:\"$claim_key\"=\"$claim\""
fail_point

if [[ $datapath_type == netdev ]]; then
    step ingress-filter
    if ! nft list table netdev "ovn-k8s-$nic" >/dev/null 2>&1; then undo_filter=1; fi
    nic_ingress_filter "$nic"
    fail_point
fi

step port-add
if [[ -z $port_owner ]]; then undo_port=1; fi
ovs-vsctl --timeout=10 -- --may-exist add-port "$bridge" "$nic"
if ! ip -o link show dev "$nic" | grep -q '[<,]UP[,>]'; then undo_link_down=1; fi
ip link set dev "$nic" up
wait_for 30 "bridge $bridge to appear" test -e "/sys/class/net/$bridge"
fail_point

if [[ $mode == shared ]]; then
    if [[ -n $undo_addrs ]]; then
        step address-move
        undo_copied=1
        ip link set dev "$bridge" up
        apply_lines "copy the addresses of $nic to $bridge" "$(address_lines replace "$bridge" <<<"$undo_addrs")"
        wait_for_dad "$bridge"
        fail_point
    fi
    if [[ -n $undo_routes ]]; then
        step route-move
        apply_lines "move the routes of $nic to $bridge" "$(route_lines replace "$bridge" <<<"$undo_routes")"
        fail_point
    fi
    if [[ -n $undo_addrs ]]; then
        step address-release
        apply_lines "remove the addresses of $nic" "$(delete_address_lines "$nic" <<<"$undo_addrs")"
        fail_point
    fi
elif [[ -n $undo_addrs || -n $undo_routes ]]; then
    step address-flush
    if [[ ! -s $restore_file ]]; then
        # Saved before anything leaves the NIC: the delete script restores exactly this.
        undo_restore_file=1
        { address_lines replace "$nic" <<<"$undo_addrs"; route_lines replace "$nic" <<<"$undo_routes"; } >"$restore_file.tmp"
        mv -f "$restore_file.tmp" "$restore_file"
    fi
    flush=$(route_lines del "$nic" <<<"$undo_routes")$'\n'$(delete_address_lines "$nic" <<<"$undo_addrs")
    apply_lines "remove the addresses and routes of $nic" "$flush"
    fail_point
fi

step boot-record
nic_piece_stage
fail_point

if ((undo_bridge || undo_filter || undo_port || undo_link_down)) || [[ -n $undo_addrs || -n $undo_routes ]]; then
    step confirm-arm
    arm_deadman
    fail_point
else
    log "gateway $mode: $nic already in $bridge, nothing changed"
    printf 'confirm-token none\n'
fi
move_open=0
log "gateway $mode: $nic in $bridge"
# Last stdout line: the NIC's MAC, which the gateway router's external port must carry.
printf '%s\n' "$nic_mac"
