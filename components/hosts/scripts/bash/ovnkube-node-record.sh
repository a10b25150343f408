# Inputs: tables_before, sysctls_before.
# Before ovnkube-node first runs: which nftables tables the host has, so that the cleanup removes
# only the iptables tables that ovnkube's iptables calls created. Recorded once.
if [[ ! -e $tables_before ]]; then
    install -d -m 0700 "${tables_before%/*}"
    nft list tables 2>/dev/null | awk '$1 == "table" { print $2, $3 }' >"$tables_before.tmp"
    mv -f "$tables_before.tmp" "$tables_before"
fi
# And the sysctls ovnkube-node sets, as /proc/sys names them: local gateway mode's EgressIP
# controller's (node/controllers/egressip/egressip.go:287-290 at v1.3.0), and with IPv6 the global
# forwarding it always turns on (default_node_network_controller.go:1583-1598).
if [[ ! -e $sysctls_before ]]; then
    install -d -m 0700 "${sysctls_before%/*}"
    for key in net/ipv4/conf/all/src_valid_mark net/ipv6/conf/all/forwarding; do echo "$key $(</proc/sys/$key)"; done >"$sysctls_before.tmp"
    mv -f "$sysctls_before.tmp" "$sysctls_before"
fi
log "ovnkube-node's host state is removed when the stack goes"
