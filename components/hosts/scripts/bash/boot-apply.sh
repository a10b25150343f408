# The boot program: run at boot after Open vSwitch has started (a systemd unit or an LSB init
# script, boot-entry.sh), it re-applies every host network piece in boot_dir: the kernel state
# (addresses, routes, link state, nftables) that the project configured around OVS objects and
# that a reboot loses, while OVS recreates its bridges and ports from its own database.
# Inputs: boot_dir, owner_key, boot_program_path, flows_wait_seconds, flows_log. Pieces are data,
# never run: each value is checked against the pattern its key takes and reaches `ip`, `nft`,
# `ovs-vsctl` and `ovs-ofctl` only as an argument.

IFNAME_RE='^[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}$'
IPV4_RE='^([0-9]{1,3}\.){3}[0-9]{1,3}$'
CIDR_RE='^([0-9]{1,3}\.){3}[0-9]{1,3}/[0-9]{1,2}$'

# piece_read FILE: sets kind and the keys of its kind; `addrs`/`routes` collect ip-move lines.
piece_read() {
    local key value re
    kind="" mode="" nic="" bridge="" owner="" ingress_filter="" addrs="" routes=""
    mgmt_if="" mac="" mtu="" mgmt_cidr="" cluster_subnet="" router_ip="" patch_port="" ct_zone="" physical_switch="" sb_address=""
    while read -r key value; do
        case $key in
        "" | "#"*) continue ;;
        kind) re='^(nic-move|mgmt-port|gateway-flows|vtep)$' ;;
        mode) re='^(shared|dedicated)$' ;;
        nic | bridge | mgmt_if | physical_switch) re=$IFNAME_RE ;;
        sb_address) re='^tcp:([0-9]{1,3}\.){3}[0-9]{1,3}:[0-9]{1,5}(,tcp:([0-9]{1,3}\.){3}[0-9]{1,3}:[0-9]{1,5})*$' ;;
        owner) re='^[a-z0-9-]{1,63}/[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}$' ;;
        ingress_filter) re='^[01]$' ;;
        mac) re='^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$' ;;
        mtu) re='^[1-9][0-9]{2,3}$' ;;
        mgmt_cidr | cluster_subnet) re=$CIDR_RE ;;
        router_ip) re=$IPV4_RE ;;
        patch_port) re='^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$' ;;
        ct_zone) re='^[1-9][0-9]{0,4}$' ;;
        address | route)
            safe_ip_words "$value"
            if [[ $key == address ]]; then addrs+=$value$'\n'; else routes+=$value$'\n'; fi
            continue
            ;;
        *) die "$1: unknown key $key" ;;
        esac
        [[ $value =~ $re ]] || die "$1: bad $key: $value"
        printf -v "$key" '%s' "$value"
    done <"$1"
}

# nic_restore (inputs from the piece: mode, nic, bridge, owner, ingress_filter, addrs, routes):
# Open vSwitch has recreated the bridge and its port from its database; the kernel state around
# them comes back here. Only our bridge, still holding the NIC, is touched.
nic_restore() {
    local tag held="" line cidr
    ovs-vsctl --timeout=10 br-exists "$bridge" || die "OVS bridge $bridge is gone from the database: nothing restored for $nic (remove $(piece_path "nic-$nic") if the move was undone by hand)"
    tag=$(bridge_owner "$bridge")
    [[ $tag == "$owner" ]] || die "OVS bridge $bridge is not this project's bridge for $nic (external_ids:$owner_key is ${tag:-absent}, expected $owner): left as it is"
    [[ $(ovs-vsctl --timeout=10 port-to-br "$nic" 2>/dev/null) == "$bridge" ]] || die "interface $nic is not a port of $bridge: nothing restored"
    if ((ingress_filter)); then nic_ingress_filter "$nic"; fi
    ip link set dev "$nic" up
    wait_for 30 "bridge $bridge to appear" test -e "/sys/class/net/$bridge"
    ip link set dev "$bridge" up
    [[ $mode == shared ]] || return 0
    if [[ -n $addrs ]]; then
        apply_lines "give $bridge its addresses" "$(address_lines replace "$bridge" <<<"$addrs")"
        wait_for_dad "$bridge"
        # The same addresses still on the NIC (put back by something else) would answer twice.
        while read -r line; do
            [[ -z $line ]] && continue
            cidr=${line:3}
            cidr=${cidr%% *}
            if [[ -n $(ip "${line:0:2}" -o addr show dev "$nic" to "${cidr%/*}" 2>/dev/null) ]]; then held+=$line$'\n'; fi
        done <<<"$addrs"
        if [[ -n $held ]]; then apply_lines "remove $bridge's addresses from $nic" "$(delete_address_lines "$nic" <<<"$held")"; fi
    fi
    if [[ -n $routes ]]; then apply_lines "give $bridge its routes" "$(route_lines replace "$bridge" <<<"$routes")"; fi
}

# mgmt_restore: Open vSwitch recreates the internal interface from its database (its `mac` and
# `mtu_request` columns too); the kernel state on it comes back here.
mgmt_restore() {
    wait_for 30 "interface $mgmt_if to appear (ovs-vswitchd creates it from its database)" test -e "/sys/class/net/$mgmt_if"
    mgmt_port_configure
}

# piece_apply FILE: one piece, in a subshell of its own, so a failing piece ends only itself.
piece_apply() {
    piece_read "$1"
    case $kind in
    nic-move)
        [[ -n $mode && -n $nic && -n $bridge && -n $owner && -n $ingress_filter ]] || die "$1: incomplete NIC move"
        nic_restore
        log "$nic on $bridge ($mode): restored"
        ;;
    mgmt-port)
        [[ -n $mgmt_if && -n $mac && -n $mtu && -n $mgmt_cidr && -n $cluster_subnet && -n $router_ip ]] || die "$1: incomplete management port"
        mgmt_restore
        log "management port $mgmt_if: restored"
        ;;
    gateway-flows)
        [[ -n $bridge && -n $nic && -n $patch_port && -n $ct_zone ]] || die "$1: incomplete gateway flows"
        # ovn-controller adds the patch port only after it starts, which comes after this entry:
        # a detached waiter installs the flows then, so the boot does not wait for it.
        setsid -f "$boot_program_path" gateway-flows "$1" </dev/null >>"$flows_log" 2>&1
        log "gateway flows on $bridge: installed once ovn-controller adds $patch_port (log: $flows_log)"
        ;;
    vtep)
        [[ -n $physical_switch && -n $sb_address ]] || die "$1: incomplete VTEP"
        vtep_db_serve
        vtep_daemons_start
        log "VTEP $physical_switch: ovs-vtep and ovn-controller-vtep started"
        ;;
    *) die "$1: no kind" ;;
    esac
}

# flows_restore PIECE: the waiter started above. Bounded: without the patch port (the gateway
# router is bound elsewhere now) the bridge keeps NORMAL, which serves the host.
flows_restore() {
    piece_read "$1"
    [[ $kind == gateway-flows ]] || die "$1: not gateway flows"
    wait_for "$flows_wait_seconds" "patch port $patch_port on $bridge (ovn-controller adds it)" gateway_patch_port_on_bridge
    [[ $(ovs-vsctl --timeout=10 port-to-br "$nic" 2>/dev/null) == "$bridge" ]] || die "interface $nic is not a port of $bridge: flows not installed"
    gateway_flows_apply
    log "gateway flows on $bridge: restored"
}

case ${1:-start} in
start | restart | force-reload | reload) ;;
stop | status) exit 0 ;;
gateway-flows)
    flows_restore "${2:?piece}"
    exit 0
    ;;
*) die "usage: $0 start" ;;
esac
wait_for 60 "Open vSwitch (ovsdb-server and ovs-vswitchd)" ovs-appctl -t ovs-vswitchd version
failed=0
for piece in "$boot_dir"/*.conf; do
    [[ -e $piece ]] || continue
    if ! (piece_apply "$piece"); then
        log "error: $piece not restored (see above)"
        failed=1
    fi
done
# The status says whether every piece came back (a plain `exit` here would hide the functions
# above from shellcheck's reachability analysis).
[[ $failed == 0 ]]
