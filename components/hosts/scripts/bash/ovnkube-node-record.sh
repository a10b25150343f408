# Input: tables_before.
# Before ovnkube-node first runs: which nftables tables the host has, so that the cleanup removes
# only the iptables tables that ovnkube's iptables calls created. Recorded once.
if [[ ! -e $tables_before ]]; then
    install -d -m 0700 "${tables_before%/*}"
    nft list tables 2>/dev/null | awk '$1 == "table" { print $2, $3 }' >"$tables_before.tmp"
    mv -f "$tables_before.tmp" "$tables_before"
fi
log "ovnkube-node's host state is removed when the stack goes"
