# Inputs: physical_switch, owner_tag, sb_address (read by vtep-daemons.sh), and the boot entry's (boot-entry.sh).
# Undoes vtep-create.sh: the daemons stop (ovn-controller-vtep's exit removes its Chassis from the
# SB), the bridges ovs-vtep made (one per VTEP logical switch, their patch ports on the physical
# switch, vtep_bfd) and the physical switch's bridge go, and the VTEP database is no longer served
# and is removed, so the host's Open vSwitch holds what it held before.
vtep_daemons_stop
while read -r br; do
    [[ -n $br ]] || continue
    if [[ $(ovs-vsctl --timeout=10 br-get-external-id "$br" vtep_logical_switch) == true ]]; then
        while read -r port; do
            peer=$(ovs-vsctl --timeout=10 --if-exists get Interface "$port" options:peer 2>/dev/null | tr -d '"')
            if [[ -n $peer ]]; then ovs-vsctl --timeout=10 --if-exists del-port "$peer"; fi
        done < <(ovs-vsctl --timeout=10 list-ports "$br")
        ovs-vsctl --timeout=10 del-br "$br"
    fi
done < <(ovs-vsctl --timeout=10 list-br)
ovs-vsctl --timeout=10 --if-exists del-br vtep_bfd
if ovs-vsctl --timeout=10 br-exists "$physical_switch"; then
    tag=$(ovs-vsctl --timeout=10 br-get-external-id "$physical_switch" "$owner_key")
    if [[ $tag == "$owner_tag" ]]; then
        ovs-vsctl --timeout=10 del-br "$physical_switch"
    else
        log "OVS bridge $physical_switch is not this VTEP's (external_ids:$owner_key is ${tag:-absent}): left as it is"
    fi
fi
if ovs-appctl -t ovsdb-server ovsdb-server/list-dbs | grep -qx hardware_vtep; then
    ovs-appctl -t ovsdb-server ovsdb-server/remove-db hardware_vtep >&2
fi
rm -f "$vtep_db" "${vtep_db%/*}/.${vtep_db##*/}.~lock~"
rm -f "$(piece_path "vtep-$physical_switch")"
boot_entry_remove_unused
log "VTEP $physical_switch removed"
