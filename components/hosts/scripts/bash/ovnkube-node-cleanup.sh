# Inputs: masquerade_subnet (one CIDR per family, space separated), cni_conf, cni_shim, tables_before and sysctls_before (what ovnkube-node-record.sh found),
# itp_rule_priority, itp_mark, itp_table (ovnkube-node's routing rule and table for ITP=local services).
# What ovnkube-node leaves on a host once its pod has gone: upstream's `ovnkube --cleanup-node`
# (CleanupClusterNode, go-controller/pkg/node/gateway_init.go at v1.3.0) removes the gateway's
# nftables table, iptables chains and bridge mappings, but keeps the management port and the
# masquerade addresses, nor local gateway mode's filter rules; here all of it goes, so that destroy
# leaves the host as it was, in either gateway mode.
rm -f "$cni_conf" "$cni_shim"
# ovnkube-node's routing rule and its table's routes through the management port (gone with the
# port too, removed first so nothing routes there meanwhile). The kernel deletes the first rule
# that has every selector given, so a rule is deleted only while no other rule of that priority
# carries the same mark and table with more selectors: never someone else's rule.
ours="$itp_rule_priority: from all fwmark $itp_mark lookup $itp_table"
for family in -4 -6; do
    if ip link show ovn-k8s-mp0 >/dev/null 2>&1; then ip "$family" route flush table "$itp_table" dev ovn-k8s-mp0 2>/dev/null || true; fi
    alike=$(ip -N "$family" rule show 2>/dev/null | tr -s ' \t' ' ' | sed 's/ $//' |
        awk -v p="$itp_rule_priority:" -v m="$itp_mark" -v t="$itp_table" '
            $1 == p { mark = table = 0; for (i = 2; i < NF; i++) { if ($i == "fwmark" && $(i + 1) == m) mark = 1; if ($i == "lookup" && $(i + 1) == t) table = 1 } }
            $1 == p && mark && table') || true
    [[ -n $alike ]] || continue
    if grep -qvxF "$ours" <<<"$alike"; then
        log "left the $family rules of priority $itp_rule_priority with fwmark $itp_mark: another rule has them with more selectors"
        continue
    fi
    while read -r _; do ip "$family" rule del priority "$itp_rule_priority" fwmark "$itp_mark" lookup "$itp_table" || true; done <<<"$alike"
done
localnet_ports() { ovs-vsctl --timeout=10 --bare --columns=name find Port 'external_ids:ovn-localnet-port!=""'; }
if command -v ovs-vsctl >/dev/null 2>&1 && ovs-vsctl --timeout=5 show >/dev/null 2>&1; then
    ovs-vsctl --timeout=10 --if-exists del-port br-int ovn-k8s-mp0
    # The bridge mappings ovnkube-node wrote: ovn-controller, still running on a host with OVN
    # from its packages, then removes the localnet patch ports it made for them (what is left of
    # them is removed here; with OVN from the image ovn-controller has gone with the pod).
    ovs-vsctl --timeout=10 remove Open_vSwitch . external_ids ovn-bridge-mappings
    no_localnet_ports() { [[ -z $(localnet_ports) ]]; }
    if ovn-appctl -t ovn-controller version >/dev/null 2>&1; then
        wait_for 10 "ovn-controller to remove the localnet patch ports" no_localnet_ports
    fi
    for port in $(localnet_ports 2>/dev/null); do ovs-vsctl --timeout=10 --if-exists del-port "$port"; done
    # The Open_vSwitch settings ovnkube-node writes at every start (default_node_network_controller.go);
    # ovn-remote and the encap keys are the chassis' to remove.
    ovs-vsctl --timeout=10 remove Open_vSwitch . external_ids ovn-is-interconn hostname ovn-monitor-all \
        ovn-remote-probe-interval ovn-bridge-remote-probe-interval ovn-ofctrl-wait-before-clear \
        ovn-enable-lflow-cache ovn-set-local-ip host-k8s-nodename \
        -- remove Open_vSwitch . other_config bundle-idle-timeout
fi
# The host's masquerade addresses and the routes through them (the service network's among them),
# in each family. Routes first: those through a masquerade address, then those to one.
read -r -a masquerade_subnets <<<"$masquerade_subnet"
for subnet in "${masquerade_subnets[@]}"; do
    family=-4
    if [[ $subnet == *:* ]]; then family=-6; fi
    while read -r dst _ via _; do
        if [[ -n $via ]]; then ip "$family" route del "$dst" via "$via" 2>/dev/null || true; fi
    done < <(ip "$family" route show via "$subnet")
    while read -r dst _; do
        if [[ -n $dst ]]; then ip "$family" route del "$dst" 2>/dev/null || true; fi
    done < <(ip "$family" route show root "$subnet")
    while read -r _ dev _ cidr _; do
        if [[ -n $cidr ]]; then ip addr del "$cidr" dev "$dev" 2>/dev/null || true; fi
    done < <(ip -o "$family" addr show to "$subnet")
done
# Its firewall: one nftables table, and iptables and ip6tables chains named OVN-KUBE-* with the jumps to them.
nft delete table inet ovn-kubernetes 2>/dev/null || true
# In both families: with IPv6 ovnkube-node makes the same chains with ip6tables.
for ipt in iptables ip6tables; do
    command -v "$ipt" >/dev/null 2>&1 || continue
    for table in nat filter mangle; do
        "$ipt" -t "$table" -S 2>/dev/null | awk '$1 == "-A" && / -j OVN-KUBE-/' | while read -r -a rule; do
            rule[0]=-D
            "$ipt" -t "$table" "${rule[@]}" 2>/dev/null || true
        done
        for chain in $("$ipt" -t "$table" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^OVN-KUBE-/ { print $2 }'); do
            "$ipt" -t "$table" -F "$chain" 2>/dev/null || true
            "$ipt" -t "$table" -X "$chain" 2>/dev/null || true
        done
    done
done
# Local gateway mode's rules outside any OVN-KUBE chain (at v1.3.0): the management port's accepts
# (getLocalGatewayFilterRules, go-controller/pkg/node/gateway_iptables.go:370-403), the EgressIP
# controller's connmark rules and its rule for node addresses (node/controllers/egressip/egressip.go:57,69-70,273-313).
delete_all() { while "$@" 2>/dev/null; do :; done; }
for ipt in iptables ip6tables; do
    command -v "$ipt" >/dev/null 2>&1 || continue
    delete_all "$ipt" -t filter -D FORWARD -o ovn-k8s-mp0 -j ACCEPT
    delete_all "$ipt" -t filter -D FORWARD -i ovn-k8s-mp0 -j ACCEPT
    delete_all "$ipt" -t filter -D INPUT -i ovn-k8s-mp0 -m comment --comment "from OVN to localhost" -j ACCEPT
    delete_all "$ipt" -t mangle -D PREROUTING -m mark --mark 0 -j CONNMARK --restore-mark
    delete_all "$ipt" -t mangle -D PREROUTING -m mark --mark 1008 -j CONNMARK --save-mark
done
for family in -4 -6; do
    delete_all ip "$family" rule del priority 5999 fwmark 1008 table main
done
# The sysctls it changed, back to what ovnkube-node-record.sh found.
if [[ -e $sysctls_before ]]; then
    while read -r key value; do
        if [[ $key == net/* && -n $value ]]; then echo "$value" >"/proc/sys/$key" || true; fi
    done <"$sysctls_before"
    rm -f "$sysctls_before"
fi
# iptables-nft makes its tables at first use: those that did not exist before ovnkube ran, and
# that hold no rule now, go too.
if [[ -e $tables_before ]]; then
    while read -r family table; do
        grep -qxF "$family $table" "$tables_before" && continue
        # A line that is not the table's, a chain's or a chain's hook is a rule.
        if ! nft list table "$family" "$table" 2>/dev/null | grep -vE '^[[:space:]]*(table |chain |type |policy |\}|$)' | grep -q .; then
            nft delete table "$family" "$table" 2>/dev/null || true
        fi
    done < <(nft list tables 2>/dev/null | awk '$1 == "table" && ($2 == "ip" || $2 == "ip6") && $3 ~ /^(filter|nat|mangle|raw|security)$/ { print $2, $3 }')
    rm -f "$tables_before"
fi
rm -rf /var/run/ovn-kubernetes
log "ovnkube-node's host state removed"
