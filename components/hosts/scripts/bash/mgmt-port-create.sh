# Inputs: mgmt_if, iface_id, mac, mtu, mgmt_cidr, cluster_subnet, router_ip, and the boot entry's
# (boot-entry.sh).
# The node's management port: an OVS internal interface on br-int bound to the logical port
# iface_id, holding exactly the model's MAC, MTU, address and route to the cluster subnet
# (boot-mgmt-port.sh); recorded as a piece the boot entry restores after a reboot.
wait_for 60 "br-int (ovn-controller creates it)" ovs-vsctl --timeout=2 br-exists br-int

# The `mac` and `mtu_request` columns make OVS re-apply both whenever it recreates the device.
ovs-vsctl --timeout=10 -- --may-exist add-port br-int "$mgmt_if" \
    -- set Interface "$mgmt_if" type=internal "mac=\"$mac\"" "mtu_request=$mtu" \
    "external_ids:iface-id=\"$iface_id\""
wait_for 30 "interface $mgmt_if to appear" test -e "/sys/class/net/$mgmt_if"
mgmt_port_configure
mgmt_piece_write
boot_entry_install
log "management port $mgmt_if: $mac $mgmt_cidr mtu $mtu, $cluster_subnet via $router_ip"
