# A management port's addresses, as its create script sets them and the boot entry restores them.
# Inputs: mgmt_if, mac, mtu, mgmt_cidr, cluster_subnet, router_ip.

# mgmt_port_configure: the interface exists (OVS made it); it gets exactly the model's MAC, MTU,
# address and route to the cluster subnet. The interface belongs to this component alone, so
# anything else found on it is removed.
mgmt_port_configure() {
    local current_mac cidr dst
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
}

# mgmt_piece_write: what the boot entry needs to configure the port again.
mgmt_piece_write() {
    printf 'kind mgmt-port\nmgmt_if %s\nmac %s\nmtu %s\nmgmt_cidr %s\ncluster_subnet %s\nrouter_ip %s\n' \
        "$mgmt_if" "$mac" "$mtu" "$mgmt_cidr" "$cluster_subnet" "$router_ip" | piece_write "$(piece_path "mgmt-$mgmt_if")"
}
