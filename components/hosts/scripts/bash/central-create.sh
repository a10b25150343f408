# Inputs: central_unit, nb_listener, sb_listener (ptcp|pssl:port:ip), listen_ip, ssl (yes|no).
# NB and SB ovsdb-servers plus ovn-northd, then the network listeners as Connection rows.
# ovn-ctl itself opens no TCP listener (its insecure remotes stay off); the listeners come only
# from set-connection, bound to the central's address, never 0.0.0.0.
ssl_dir=/etc/ovn
ssl_key=$ssl_dir/ovn-central-privkey.pem
ssl_cert=$ssl_dir/ovn-central-cert.pem
ssl_ca=$ssl_dir/ovn-central-cacert.pem

central_running() {
    ovn-nbctl --timeout=2 show && ovn-sbctl --timeout=2 show && ovn-appctl -t ovn-northd version
}
if ! central_running >/dev/null 2>&1; then
    if has_systemd; then
        systemctl enable --now "$central_unit" >&2
    else
        "$(find_ovn_ctl)" --db-nb-addr="$listen_ip" --db-sb-addr="$listen_ip" \
            --db-nb-create-insecure-remote=no --db-sb-create-insecure-remote=no start_northd >&2
    fi
fi
wait_for 30 "the OVN Northbound, Southbound databases and ovn-northd" central_running

if [[ $ssl == yes ]]; then
    read_secrets
    write_ssl_files
    ovn-nbctl --timeout=10 set-ssl "$ssl_key" "$ssl_cert" "$ssl_ca"
    ovn-sbctl --timeout=10 set-ssl "$ssl_key" "$ssl_cert" "$ssl_ca"
elif [[ -e $ssl_key ]]; then
    # Switched from ssl to tcp: the SSL settings this script once wrote go.
    ovn-nbctl --timeout=10 del-ssl
    ovn-sbctl --timeout=10 del-ssl
    rm -f "$ssl_key" "$ssl_cert" "$ssl_ca"
fi

# set-connection replaces every Connection row, which drops connected clients: only when changed.
[[ $(ovn-nbctl --timeout=10 get-connection) == "$nb_listener" ]] || ovn-nbctl --timeout=10 set-connection "$nb_listener"
[[ $(ovn-sbctl --timeout=10 get-connection) == "$sb_listener" ]] || ovn-sbctl --timeout=10 set-connection "$sb_listener"
log "OVN central listening on $nb_listener (NB) and $sb_listener (SB)"
