# Input: mgmt_if. Deleting the OVS port deletes the device, and the kernel drops its address
# and routes with it.
ovs-vsctl --timeout=10 --if-exists del-port "$mgmt_if"
mgmt_if_gone() { ! test -e "/sys/class/net/$mgmt_if"; }
wait_for 30 "interface $mgmt_if to disappear" mgmt_if_gone
log "management port $mgmt_if removed"
