# Inputs: ovs_unit (systemd unit), datapath_type (system|netdev).
# Start ovsdb-server and ovs-vswitchd unless both already answer (then go on: the bodies after this
# one in the same command still run). Without systemd, `ovs-ctl start`
# would load the openvswitch kernel module, which a userspace-only (netdev) host does not have:
# there ovsdb-server comes from `ovs-ctl --no-ovs-vswitchd` and ovs-vswitchd is started directly.
ovs_running() { ovs-vsctl --timeout=2 show && ovs-appctl -t ovs-vswitchd version; }

if ovs_running >/dev/null 2>&1; then
    log "Open vSwitch already running"
elif has_systemd; then
    systemctl enable --now "$ovs_unit" >&2
else
    ovs_ctl=/usr/share/openvswitch/scripts/ovs-ctl
    [[ -x $ovs_ctl ]] || die "$ovs_ctl not found: is Open vSwitch installed?"
    # --system-id=random reads /etc/openvswitch/system-id.conf (or creates it), the same file the
    # chassis script uses, so a restart never changes or blanks external_ids:system-id.
    # --no-record-hostname: ovs-ctl would look the name up in a background job that holds the
    # SSH session open until DNS times out; ovn-controller falls back to gethostname() anyway.
    "$ovs_ctl" --no-ovs-vswitchd --no-monitor --no-record-hostname --system-id=random start >&2
    if ! ovs-appctl -t ovs-vswitchd version >/dev/null 2>&1; then
        if [[ $datapath_type == netdev ]]; then
            ovs-vswitchd --pidfile --detach --no-chdir --log-file -vconsole:emer -vsyslog:err -vfile:info >&2
        else
            "$ovs_ctl" --no-ovsdb-server --no-monitor start >&2
        fi
    fi
fi
wait_for 30 "ovsdb-server and ovs-vswitchd to answer" ovs_running
log "Open vSwitch running"
