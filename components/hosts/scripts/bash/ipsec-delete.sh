# Input: ipsec_unit.
# Undoes ipsec-create: NB_Global ipsec false in the zone (when it still runs), ovs-monitor-ipsec told to exit with its cleanup (it removes every connection
# and the certificates it gave the IKE daemon), the IKE daemon stopped (it removes the SAs and
# policies it installed) or, when the host ran one before, started again on its own configuration
# put back; then the other_config keys, the keys directory's files, strongSwan's ovs.conf and the
# CA in its cacerts directory.
record=/etc/openvswitch/ovn-kubernetes-as-code-ipsec
keys=/etc/openvswitch/keys
# The tunnels first lose their IPsec options (ovn-controller follows the SB), then the connections go.
if ovn-nbctl --timeout=2 show >/dev/null 2>&1; then ovn-nbctl --timeout=10 set NB_Global . ipsec=false; fi
if ovs-appctl -t ovs-monitor-ipsec version >/dev/null 2>&1; then
    ovs-appctl -t ovs-monitor-ipsec exit >&2 || true
fi
monitor_gone() { ! ovs-appctl -t ovs-monitor-ipsec version; }
wait_for 30 "ovs-monitor-ipsec to exit" monitor_gone
if has_systemd; then systemctl disable --now "$ipsec_unit" >&2 || true; fi
rm -f /etc/strongswan.d/ovs.conf /etc/ipsec.d/cacerts/ovn-kubernetes-ipsec-ca.pem
if [[ -e $record/kept ]]; then
    for f in /etc/ipsec.conf /etc/ipsec.secrets; do
        if [[ -e $record/${f##*/} ]]; then cp -a "$record/${f##*/}" "$f"; else rm -f "$f"; fi
    done
fi
if command -v ipsec >/dev/null; then
    if [[ -e $record/ike-was-running ]]; then
        ipsec restart >&2
    else
        # Stopping one that does not run succeeds.
        ipsec stop >&2
        ike_gone() { ! ipsec status; }
        wait_for 30 "the IKE daemon to stop" ike_gone
    fi
fi
ovs-vsctl --timeout=10 remove Open_vSwitch . other_config certificate private_key ca_cert
rm -f "$keys/ipsec-privkey.pem" "$keys/ipsec-cert.pem" "$keys/ipsec-cacert.pem"
rmdir "$keys" 2>/dev/null || true
rm -rf "$record"
log "IPsec removed"
