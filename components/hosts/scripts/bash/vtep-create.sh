# Inputs: physical_switch, tunnel_ip, datapath_type, sb_address, ports (one NIC a line),
# owner_tag, and the boot entry's (boot-entry.sh).
# A VTEP gateway as Documentation/howto/vtep.rst sets one up: the physical switch's OVS bridge with
# its NICs, the Physical_Switch with its tunnel IP and ports, then ovs-vtep and ovn-controller-vtep,
# restarted so that they read the switch as it is now. The logical switches and VLAN bindings are
# the VtepBindings resource's (hosts/vtepBindings.ts). Recorded as a piece the boot entry starts
# again.
vtep_db_serve
ovs-vsctl --timeout=10 -- --may-exist add-br "$physical_switch" \
    -- set Bridge "$physical_switch" "datapath_type=$datapath_type" "external_ids:\"$owner_key\"=\"$owner_tag\""
vtep-ctl --may-exist add-ps "$physical_switch"
vtep-ctl set Physical_Switch "$physical_switch" "tunnel_ips=\"$tunnel_ip\""

declare -A wanted_port=()
while read -r port; do
    [[ -n $port ]] || continue
    wanted_port[$port]=1
    ovs-vsctl --timeout=10 --may-exist add-port "$physical_switch" "$port"
    ip link set dev "$port" up
    vtep-ctl --may-exist add-port "$physical_switch" "$port"
done <<<"$ports"

# Ports no longer declared: out of the VTEP database and off the bridge (ovs-vtep's patch ports stay).
while read -r port; do
    [[ -n $port && -z ${wanted_port[$port]:-} ]] || continue
    vtep-ctl --if-exists del-port "$physical_switch" "$port"
    ovs-vsctl --timeout=10 --if-exists del-port "$physical_switch" "$port"
    log "port $port removed from $physical_switch"
done < <(vtep-ctl list-ports "$physical_switch")

vtep_daemons_stop
vtep_daemons_start
printf 'kind vtep\nphysical_switch %s\nsb_address %s\n' "$physical_switch" "$sb_address" | piece_write "$(piece_path "vtep-$physical_switch")"
boot_entry_install
log "VTEP $physical_switch: tunnel $tunnel_ip, ${#wanted_port[@]} ports, ovn-controller-vtep on $sb_address"
