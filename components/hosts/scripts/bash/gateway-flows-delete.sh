# Inputs: bridge, and the boot entry's (boot-entry.sh). Back to the single flow a standalone
# bridge starts with; the boot entry forgets the flows.
if ovs-vsctl --timeout=10 br-exists "$bridge"; then
    flows=$(mktemp)
    printf 'priority=0, actions=NORMAL\n' >"$flows"
    ovs-ofctl --timeout=10 -O OpenFlow13 replace-flows "$bridge" "$flows" || { rm -f "$flows"; die "ovs-ofctl replace-flows $bridge failed"; }
    rm -f "$flows"
fi
rm -f "$(piece_path "flows-$bridge")"
boot_entry_remove_unused
log "flows on $bridge back to NORMAL"
