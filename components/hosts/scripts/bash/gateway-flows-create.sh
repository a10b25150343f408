# Inputs: bridge, nic, patch_port, ct_zone, wait_seconds.
# Shared gateway: the host and the OVN gateway router use the same IP and MAC on the NIC.
# Conntrack tells their traffic apart: what the gateway router sends (from the patch port) is
# committed in zone ct_zone; what comes in from the NIC is looked up in that zone, and only
# replies to the gateway router's connections (established or related) go to the patch port.
# Everything else, ARP included, is the host's: NORMAL switching to the bridge's local port.
# replace-flows makes the bridge hold exactly these flows, so a re-run changes nothing. It needs
# an explicit OpenFlow 1.3: with its default version ovs-ofctl 3.1 finds no usable flow format.
port_on_bridge() { [[ $(ovs-vsctl --timeout=2 port-to-br "$patch_port") == "$bridge" ]]; }
wait_for "$wait_seconds" "patch port $patch_port on $bridge (ovn-controller adds it once the gateway router's localnet port is bound here)" port_on_bridge

ofport() {
    local n
    n=$(ovs-vsctl --timeout=10 get Interface "$1" ofport)
    [[ $n =~ ^[0-9]+$ && $n -gt 0 ]] || die "interface $1 has no OpenFlow port number (got $n)"
    printf '%s\n' "$n"
}
nic_port=$(ofport "$nic")
patch_ofport=$(ofport "$patch_port")

flows=$(mktemp)
cat >"$flows" <<FLOWS
table=0, priority=100, in_port=$patch_ofport, ip, actions=ct(commit,zone=$ct_zone),output:$nic_port
table=0, priority=50, in_port=$nic_port, ip, actions=ct(zone=$ct_zone,table=1)
table=0, priority=0, actions=NORMAL
table=1, priority=100, ct_state=+trk+est, ip, actions=output:$patch_ofport
table=1, priority=100, ct_state=+trk+rel, ip, actions=output:$patch_ofport
table=1, priority=0, actions=NORMAL
FLOWS
# Only when they differ: a replace with equal flows is harmless, but skipping it keeps the flow
# counters and proves to the caller (stderr) that nothing changed.
if [[ -z $(ovs-ofctl --timeout=10 -O OpenFlow13 diff-flows "$bridge" "$flows") ]]; then
    rm -f "$flows"
    log "conntrack flows on $bridge unchanged"
    exit 0
fi
if ! ovs-ofctl --timeout=10 -O OpenFlow13 replace-flows "$bridge" "$flows"; then
    rm -f "$flows"
    die "ovs-ofctl replace-flows $bridge failed"
fi
rm -f "$flows"
log "conntrack flows on $bridge: patch port $patch_ofport, $nic port $nic_port, zone $ct_zone"
