# Inputs: zone (the node's name), central_unit (the distribution's unit for NB, SB and northd),
# northd_backoff_ms.
# Interconnect: this host is a zone of its own, with NB, SB and ovn-northd listening on their unix
# sockets only, as upstream's local-nb-ovsdb/local-sb-ovsdb/run-ovn-northd containers run them.
# What this script starts and creates is recorded, so that delete undoes exactly that.
record=/etc/ovn/ovn-kubernetes-as-code-zone.conf
zone_running() {
    ovn-nbctl --timeout=2 show && ovn-sbctl --timeout=2 show && ovn-appctl -t ovn-northd version
}
if ! zone_running >/dev/null 2>&1; then
    created=no
    [[ -e /etc/ovn/ovnnb_db.db || -e /var/lib/ovn/ovnnb_db.db ]] || created=yes
    # Recorded before the start: a start that dies halfway is still undone by delete.
    if [[ ! -e $record ]]; then
        mkdir -p "${record%/*}"
        printf 'started yes\ncreated %s\n' "$created" >"$record.tmp"
        mv -f "$record.tmp" "$record"
    fi
    if has_systemd; then
        systemctl enable --now "$central_unit" >&2
    else
        "$(find_ovn_ctl)" --db-nb-create-insecure-remote=no --db-sb-create-insecure-remote=no start_northd >&2
    fi
fi
wait_for 30 "the zone's Northbound, Southbound databases and ovn-northd" zone_running
# The zone's name is how ovnkube-controller (--zone) and the other zones know this NB.
ovn-nbctl --timeout=10 set NB_Global . name="$zone" options:name="$zone" options:northd-backoff-interval-ms="$northd_backoff_ms"
log "zone $zone: NB, SB and ovn-northd on their unix sockets"
