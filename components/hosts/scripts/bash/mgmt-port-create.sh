# Inputs: mgmt_if, iface_id, mac, mtu, mgmt_cidr, cluster_subnet, router_ip.
# The node's management port: an OVS internal interface on br-int bound to the logical port
# iface_id, holding exactly the model's MAC, MTU, address and route to the cluster subnet. The
# interface belongs to this component alone, so anything else found on it is removed.
wait_for 60 "br-int (ovn-controller creates it)" ovs-vsctl --timeout=2 br-exists br-int

# The `mac` and `mtu_request` columns make OVS re-apply both whenever it recreates the device.
ovs-vsctl --timeout=10 -- --may-exist add-port br-int "$mgmt_if" \
    -- set Interface "$mgmt_if" type=internal "mac=\"$mac\"" "mtu_request=$mtu" \
    "external_ids:iface-id=\"$iface_id\""
wait_for 30 "interface $mgmt_if to appear" test -e "/sys/class/net/$mgmt_if"

current_mac=$(cat "/sys/class/net/$mgmt_if/address")
[[ ${current_mac,,} == "${mac,,}" ]] || ip link set dev "$mgmt_if" address "$mac"
ip link set dev "$mgmt_if" mtu "$mtu" up

# Exactly one IPv4 address: a changed model address replaces the old one.
while read -r cidr; do
    [[ -z $cidr || $cidr == "$mgmt_cidr" ]] || ip addr del "$cidr" dev "$mgmt_if"
done < <(ip -4 -o addr show dev "$mgmt_if" scope global | awk '{ print $4 }')
ip addr replace "$mgmt_cidr" dev "$mgmt_if"

# Exactly one static route: the cluster subnet via the node's router port (rtos-<node>).
ip route replace "$cluster_subnet" via "$router_ip" dev "$mgmt_if"
while read -r dst; do
    [[ -z $dst || $dst == "$cluster_subnet" ]] || ip route del "$dst" dev "$mgmt_if"
done < <(ip -4 route show dev "$mgmt_if" | awk '!/ proto kernel / { print $1 }')
log "management port $mgmt_if: $mac $mgmt_cidr mtu $mtu, $cluster_subnet via $router_ip"
