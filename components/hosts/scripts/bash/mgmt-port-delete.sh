# Input: mgmt_if, and the boot entry's (boot-entry.sh). Deleting the OVS port deletes the device,
# and the kernel drops its address and routes with it; the boot entry forgets the port.
ovs-vsctl --timeout=10 --if-exists del-port "$mgmt_if"
mgmt_if_gone() { ! test -e "/sys/class/net/$mgmt_if"; }
wait_for 30 "interface $mgmt_if to disappear" mgmt_if_gone
rm -f "$(piece_path "mgmt-$mgmt_if")"
boot_entry_remove_unused
log "management port $mgmt_if removed"
