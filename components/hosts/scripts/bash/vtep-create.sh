# Inputs: physical_switch, tunnel_ip, datapath_type, sb_address, ports (one NIC a line), bindings
# ("port vlan logical-switch" lines), owner_tag, and the boot entry's (boot-entry.sh).
# A VTEP gateway as Documentation/howto/vtep.rst sets one up: the physical switch's OVS bridge with
# its NICs, the Physical_Switch with its tunnel IP and ports, exactly the declared VLAN bindings
# (others are unbound: one up removes a binding), then ovs-vtep and ovn-controller-vtep, restarted
# so that they read the switch as it is now. Recorded as a piece the boot entry starts again.
vtep_db_serve
ovs-vsctl --timeout=10 -- --may-exist add-br "$physical_switch" \
    -- set Bridge "$physical_switch" "datapath_type=$datapath_type" "external_ids:\"$owner_key\"=\"$owner_tag\""
vtep-ctl --may-exist add-ps "$physical_switch"
vtep-ctl set Physical_Switch "$physical_switch" "tunnel_ips=\"$tunnel_ip\""

declare -A wanted_port=() wanted_binding=() wanted_ls=()
while read -r port; do
    [[ -n $port ]] || continue
    wanted_port[$port]=1
    ovs-vsctl --timeout=10 --may-exist add-port "$physical_switch" "$port"
    ip link set dev "$port" up
    vtep-ctl --may-exist add-port "$physical_switch" "$port"
done <<<"$ports"
while read -r port vlan ls; do
    [[ -n $port ]] || continue
    wanted_binding["$port $vlan"]=$ls
    wanted_ls[$ls]=1
done <<<"$bindings"

# Ports no longer declared: out of the VTEP database and off the bridge (ovs-vtep's patch ports stay).
while read -r port; do
    [[ -n $port && -z ${wanted_port[$port]:-} ]] || continue
    vtep-ctl --if-exists del-port "$physical_switch" "$port"
    ovs-vsctl --timeout=10 --if-exists del-port "$physical_switch" "$port"
    log "port $port removed from $physical_switch"
done < <(vtep-ctl list-ports "$physical_switch")

declare -A bound=()
for port in "${!wanted_port[@]}"; do
    while read -r vlan ls; do
        [[ -n $vlan ]] || continue
        vlan=$((10#$vlan))
        if [[ ${wanted_binding["$port $vlan"]:-} == "$ls" ]]; then
            bound["$port $vlan"]=1
        else
            vtep-ctl unbind-ls "$physical_switch" "$port" "$vlan"
            log "VLAN $vlan of $port unbound from $ls"
        fi
    done < <(vtep-ctl list-bindings "$physical_switch" "$port")
done
for key in "${!wanted_binding[@]}"; do
    [[ -z ${bound[$key]:-} ]] || continue
    read -r port vlan <<<"$key"
    ls=${wanted_binding[$key]}
    vtep-ctl --may-exist add-ls "$ls"
    vtep-ctl bind-ls "$physical_switch" "$port" "$vlan" "$ls"
    log "VLAN $vlan of $port bound to $ls"
done
# Logical switches no binding uses any more; one that ovn-controller-vtep still holds MACs of stays
# (unbound, it carries nothing) until destroy removes the database.
while read -r ls; do
    [[ -n $ls && -z ${wanted_ls[$ls]:-} ]] || continue
    vtep-ctl --if-exists del-ls "$ls" 2>/dev/null || log "VTEP logical switch $ls kept: ovn-controller-vtep still refers to it"
done < <(vtep-ctl list-ls)

vtep_daemons_stop
vtep_daemons_start
printf 'kind vtep\nphysical_switch %s\nsb_address %s\n' "$physical_switch" "$sb_address" | piece_write "$(piece_path "vtep-$physical_switch")"
boot_entry_install
log "VTEP $physical_switch: tunnel $tunnel_ip, ${#wanted_binding[@]} bindings, ovn-controller-vtep on $sb_address"
