# The conntrack flows of a shared gateway bridge, as its create script installs them and the boot
# entry restores them (OpenFlow rules live in ovs-vswitchd's memory, not in its database, so a
# restart leaves the bridge with NORMAL only). Inputs: bridge, nic, patch_port, ct_zone.
# Shared gateway: the host and the OVN gateway router use the same IP and MAC on the NIC.
# Conntrack tells their traffic apart: what the gateway router sends (from the patch port) is
# committed in zone ct_zone; what comes in from the NIC is looked up in that zone, and only
# replies to the gateway router's connections (established or related) go to the patch port;
# every other IPv4 packet from the NIC is the host's and goes to the bridge's local port, and
# other frames for the shared MAC (ARP replies, IPv6) go to both, each taking what is its own.
# Not NORMAL for these: host and router send with the same MAC, so NORMAL's MAC learning moves
# that MAC between the local port and the patch port with every ARP the router answers, and
# meanwhile hands the host's packets (its SSH, the userspace datapath's tunnel traffic carrying
# the pods' packets) to the router. Broadcasts and what the host and the router send stay NORMAL.

# gateway_ofport IFACE: its OpenFlow port number.
gateway_ofport() {
    local n
    n=$(ovs-vsctl --timeout=10 get Interface "$1" ofport)
    [[ $n =~ ^[0-9]+$ && $n -gt 0 ]] || die "interface $1 has no OpenFlow port number (got $n)"
    printf '%s\n' "$n"
}

gateway_patch_port_on_bridge() { [[ $(ovs-vsctl --timeout=2 port-to-br "$patch_port") == "$bridge" ]]; }

# gateway_flows_apply: the bridge holds exactly these flows afterwards (replace-flows), only
# rewritten when they differ: skipping an equal replace keeps the flow counters and tells the
# caller (stderr) that nothing changed. replace-flows needs an explicit OpenFlow 1.3: with its
# default version ovs-ofctl 3.1 finds no usable flow format.
gateway_flows_apply() {
    local nic_port patch_ofport nic_mac flows
    nic_port=$(gateway_ofport "$nic")
    patch_ofport=$(gateway_ofport "$patch_port")
    nic_mac=$(cat "/sys/class/net/$nic/address")
    [[ $nic_mac =~ ^[0-9a-f]{2}(:[0-9a-f]{2}){5}$ ]] || die "interface $nic has no Ethernet address"
    flows=$(mktemp)
    cat >"$flows" <<FLOWS
table=0, priority=100, in_port=$patch_ofport, ip, actions=ct(commit,zone=$ct_zone),output:$nic_port
table=0, priority=50, in_port=$nic_port, ip, actions=ct(zone=$ct_zone,table=1)
table=0, priority=10, in_port=$nic_port, dl_dst=$nic_mac, actions=output:$patch_ofport,output:LOCAL
table=0, priority=0, actions=NORMAL
table=1, priority=100, ct_state=+trk+est, ip, actions=output:$patch_ofport
table=1, priority=100, ct_state=+trk+rel, ip, actions=output:$patch_ofport
table=1, priority=0, actions=output:LOCAL
FLOWS
    if [[ -z $(ovs-ofctl --timeout=10 -O OpenFlow13 diff-flows "$bridge" "$flows") ]]; then
        rm -f "$flows"
        log "conntrack flows on $bridge unchanged"
        return 0
    fi
    if ! ovs-ofctl --timeout=10 -O OpenFlow13 replace-flows "$bridge" "$flows"; then
        rm -f "$flows"
        die "ovs-ofctl replace-flows $bridge failed"
    fi
    rm -f "$flows"
    log "conntrack flows on $bridge: patch port $patch_ofport, $nic port $nic_port, zone $ct_zone"
}

# gateway_flows_piece_write: what the boot entry needs to install the flows again, by port name
# (OpenFlow port numbers are handed out anew when OVS recreates the ports).
# shellcheck disable=SC2317 # a library function: not every script that includes it calls it
gateway_flows_piece_write() {
    printf 'kind gateway-flows\nbridge %s\nnic %s\npatch_port %s\nct_zone %s\n' "$bridge" "$nic" "$patch_port" "$ct_zone" |
        piece_write "$(piece_path "flows-$bridge")"
}
