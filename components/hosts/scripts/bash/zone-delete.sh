# Undoes what zone-create recorded: stops NB, SB and ovn-northd if it started them, and removes
# their databases if it created them. A host whose daemons ran before is left as it was.
record=/etc/ovn/ovn-kubernetes-as-code-zone.conf
if [[ ! -e $record ]]; then
    log "zone: nothing of this project's to undo"
    exit 0
fi
recorded() { awk -v k="$1" '$1 == k { print $2 }' "$record"; }
if [[ $(recorded started) == yes ]]; then
    if has_systemd; then
        systemctl disable --now "$central_unit" >&2
    else
        "$(find_ovn_ctl)" stop_northd >&2
    fi
fi
if [[ $(recorded created) == yes ]]; then
    for dir in /etc/ovn /var/lib/ovn; do
        rm -f "$dir/ovnnb_db.db" "$dir/ovnsb_db.db" "$dir/.ovnnb_db.db.~lock~" "$dir/.ovnsb_db.db.~lock~"
    done
fi
rm -f "$record"
log "zone: databases and ovn-northd of this project removed"
