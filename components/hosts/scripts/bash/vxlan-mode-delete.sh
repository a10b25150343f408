# Input: none. Run on the (first) central: ovn-northd leaves VXLAN mode once the VTEP's chassis is
# gone; the option is removed with the last VTEP gateway.
ovn-nbctl --timeout=30 remove NB_Global . options vxlan_mode
log "NB_Global options:vxlan_mode removed"
