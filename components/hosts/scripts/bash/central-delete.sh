# Close the central to the network: listeners and SSL settings go, the SSL files this component
# wrote are removed. The databases and their daemons stay: the NB and SB files hold state that is
# not this component's (every logical switch, router and port that ovnkube and the NB resources
# wrote), a replace of this component must not wipe the cluster, and "cleanup on uninstall, never
# on restart" asks that data is only ever removed by an explicit, separate act.
ssl_dir=/etc/ovn
if ovn-nbctl --timeout=5 show >/dev/null 2>&1; then
    ovn-nbctl --timeout=10 del-connection
    ovn-nbctl --timeout=10 del-ssl
fi
if ovn-sbctl --timeout=5 show >/dev/null 2>&1; then
    ovn-sbctl --timeout=10 del-connection
    ovn-sbctl --timeout=10 del-ssl
fi
rm -f "$ssl_dir/ovn-central-privkey.pem" "$ssl_dir/ovn-central-cert.pem" "$ssl_dir/ovn-central-cacert.pem"
log "OVN central listeners removed; databases kept"
