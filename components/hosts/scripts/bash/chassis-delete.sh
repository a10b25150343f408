# Input: controller_unit.
# Stop ovn-controller gracefully (without --restart it removes its Chassis from the SB) and remove
# the OVN settings this component wrote, and br-int when ovn-controller made it for this chassis.
# The system-id and its file stay: the identity of an OVS host outlives its OVN membership and is
# reused if the host joins again.
if ovn-appctl -t ovn-controller version >/dev/null 2>&1; then
    if has_systemd; then
        systemctl disable --now "$controller_unit" >&2
    else
        "$(find_ovn_ctl)" stop_controller >&2
    fi
fi
controller_gone() { ! ovn-appctl -t ovn-controller version; }
wait_for 30 "ovn-controller to exit" controller_gone
brint_record=/etc/openvswitch/ovn-kubernetes-as-code-br-int
if [[ -e $brint_record ]]; then
    ovs-vsctl --timeout=10 --if-exists del-br br-int
    rm -f "$brint_record"
fi
ovs-vsctl --timeout=10 remove Open_vSwitch . external_ids ovn-remote ovn-nb ovn-encap-ip ovn-encap-type \
    k8s-api-server k8s-api-token k8s-ca-certificate ovn-bridge-mappings ovn-bridge-datapath-type
if [[ -e /etc/openvswitch/ovn-controller-privkey.pem ]]; then
    ovs-vsctl --timeout=10 del-ssl
    rm -f /etc/openvswitch/ovn-controller-privkey.pem /etc/openvswitch/ovn-controller-cert.pem /etc/openvswitch/ovn-controller-cacert.pem
fi
log "chassis settings removed"
