# Inputs: ike_daemon (strongswan on Debian, libreswan on RHEL: what the distribution's
# openvswitch-ipsec depends on and its unit starts), ipsec_unit; stdin: ipsec-private-key,
# ipsec-certificate, ipsec-ca-certificate.
# IPsec for this chassis' tunnels (ovnkube.ipsec), what upstream's ovn-ipsec pod does on the host:
# the chassis' key and certificate (CN = its system-id) and the CA in /etc/openvswitch/keys,
# Open_vSwitch other_config naming them, and ovs-monitor-ipsec with its IKE daemon, which make an
# IPsec connection for every tunnel ovn-controller marks (options:remote_name, once the zone's
# NB_Global ipsec is true). ovs-monitor-ipsec rewrites /etc/ipsec.conf and /etc/ipsec.secrets:
# the distribution's are kept first, once, for delete to put back. NB_Global ipsec of this node's
# zone is set last, once ovs-monitor-ipsec runs to take the tunnels it marks (ovnkube.sh's
# local-nb-ovsdb sets it at the zone's start instead).
read_secrets
keys=/etc/openvswitch/keys
strongswan_ca=/etc/ipsec.d/cacerts/ovn-kubernetes-ipsec-ca.pem
record=/etc/openvswitch/ovn-kubernetes-as-code-ipsec
ovs_ctl=/usr/share/openvswitch/scripts/ovs-ctl
[[ -e /usr/share/openvswitch/scripts/ovs-monitor-ipsec ]] || die "ovs-monitor-ipsec not found: is openvswitch-ipsec installed?"
if [[ ! -e $record/kept ]]; then
    mkdir -p "$record"
    for f in /etc/ipsec.conf /etc/ipsec.secrets; do
        if [[ -e $f ]]; then cp -a "$f" "$record/${f##*/}"; fi
    done
    # An IKE daemon the host ran before is started again by delete; one this script started is stopped.
    if ipsec status >/dev/null 2>&1; then echo yes >"$record/ike-was-running"; fi
    touch "$record/kept"
fi
mkdir -p "$keys"
write_secret_file ipsec-private-key "$keys/ipsec-privkey.pem"
write_secret_file ipsec-certificate "$keys/ipsec-cert.pem"
write_secret_file ipsec-ca-certificate "$keys/ipsec-cacert.pem"
# strongSwan ignores the `ca` section ovs-monitor-ipsec writes (no auto=add) and trusts the CAs in
# its cacerts directory; libreswan's NSS database gets the CA from ovs-monitor-ipsec itself.
if [[ $ike_daemon == strongswan ]]; then
    mkdir -p "${strongswan_ca%/*}"
    write_secret_file ipsec-ca-certificate "$strongswan_ca"
fi
ovs-vsctl --timeout=10 set Open_vSwitch . other_config:certificate="$keys/ipsec-cert.pem" \
    other_config:private_key="$keys/ipsec-privkey.pem" other_config:ca_cert="$keys/ipsec-cacert.pem"
# Started afresh, so that a renewed certificate is read (the IKE daemon restarts with it).
if has_systemd; then
    systemctl enable "$ipsec_unit" >&2
    systemctl restart "$ipsec_unit" >&2
else
    "$ovs_ctl" stop-ovs-ipsec >&2 || true
    "$ovs_ctl" --ike-daemon="$ike_daemon" start-ovs-ipsec >&2
fi
monitor_running() { ovs-appctl -t ovs-monitor-ipsec tunnels/show && ipsec status; }
wait_for 30 "ovs-monitor-ipsec and its IKE daemon" monitor_running
ovn-nbctl --timeout=10 set NB_Global . ipsec=true
log "IPsec: ovs-monitor-ipsec with $ike_daemon, NB_Global ipsec=true"
