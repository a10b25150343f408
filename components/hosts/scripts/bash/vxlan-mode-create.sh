# Input: none. Run on the (first) central.
# A VTEP's chassis speaks VXLAN only, and any VXLAN chassis puts ovn-northd in "VXLAN mode": 12-bit
# datapath keys (4095 switches and routers) and 11-bit port keys, to fit geneve's metadata into a
# VNI (ovn-architecture.7). OVN 24.09 and later keep geneve's key space when
# NB_Global options:vxlan_mode=false (ovn-nb.5), set here; an older northd ignores the key, so
# there the limit is checked and stated instead. Prints the outcome as its last line.
northd_version=$(ovn-northd --version | awk 'NR == 1 { print $NF }')
[[ $northd_version =~ ^[0-9]+\.[0-9]+ ]] || die "cannot read ovn-northd's version (got '$northd_version')"
if [[ $(printf '%s\n' 24.09 "$northd_version" | sort -V | head -n1) == 24.09 ]]; then
    ovn-nbctl --timeout=30 set NB_Global . options:vxlan_mode=false
    log "OVN $northd_version: NB_Global options:vxlan_mode=false, geneve keeps its 16-bit datapath keys"
    echo "vxlan_mode=false"
else
    datapaths=$(($(ovn-nbctl --timeout=30 --bare --columns=_uuid list Logical_Switch | grep -c .) + $(ovn-nbctl --timeout=30 --bare --columns=_uuid list Logical_Router | grep -c .)))
    ((datapaths <= 4095)) || die "OVN $northd_version has no NB_Global options:vxlan_mode (24.09 and later): with a VTEP gateway northd allows 4095 switches and routers, NB has $datapaths; upgrade OVN"
    log "OVN $northd_version has no NB_Global options:vxlan_mode (24.09 and later): VXLAN mode limits this cluster to 4095 switches and routers ($datapaths now)"
    echo "vxlan_mode=unsupported"
fi
