# Inputs: none. This member leaves the NB and SB clusters (the others go on with the rest), its
# daemons stop, and its database files, SSL files and unit drop-ins are removed: a member cannot
# be restarted from old raft files once the cluster has moved on without it, and re-creating the
# central starts from a clean directory.
db_dir=/var/lib/ovn
run_dir=/var/run/ovn
ctl=$(find_ovn_ctl)
for db in nb sb; do
    name=OVN_Northbound
    [[ $db == sb ]] && name=OVN_Southbound
    target=$run_dir/ovn${db}_db.ctl
    if ovs-appctl -t "$target" cluster/status "$name" >/dev/null 2>&1; then
        ovs-appctl -t "$target" cluster/leave "$name" >&2 || true
        # Bounded: the last member has nobody to leave to and stops below anyway.
        for ((i = 0; i < 100; i++)); do
            ovs-appctl -t "$target" cluster/status "$name" 2>/dev/null | grep -q '^Status: cluster member' || break
            sleep 0.1
        done
    fi
done
if has_systemd; then
    systemctl disable --now ovn-central >&2 || true
    rm -rf /etc/systemd/system/ovn-ovsdb-server-nb.service.d/ovn-kubernetes-as-code.conf \
        /etc/systemd/system/ovn-ovsdb-server-sb.service.d/ovn-kubernetes-as-code.conf \
        /etc/systemd/system/ovn-northd.service.d/ovn-kubernetes-as-code.conf
    systemctl daemon-reload
else
    "$ctl" stop_northd >&2 || true
    "$ctl" stop_nb_ovsdb >&2 || true
    "$ctl" stop_sb_ovsdb >&2 || true
fi
# With them go the standalone copies set aside when a single central grew into the cluster
# (ovn-ctl's .backup<version>-<sum>, the joiners' .standalone-<time>): the cluster held their rows.
rm -f "$db_dir/ovnnb_db.db" "$db_dir/ovnsb_db.db" "$db_dir/.ovnnb_db.db.~lock~" "$db_dir/.ovnsb_db.db.~lock~" \
    "$db_dir"/ovn[ns]b_db.db.backup* "$db_dir"/ovn[ns]b_db.db.standalone-*
rm -f /etc/ovn/ovn-central-privkey.pem /etc/ovn/ovn-central-cert.pem /etc/ovn/ovn-central-cacert.pem
log "OVN central member removed: cluster files gone"
