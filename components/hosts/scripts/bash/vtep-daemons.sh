# A VTEP gateway's database and daemons, as its create script starts them and the boot entry
# starts them again (boot-apply.sh). Inputs: physical_switch, sb_address.
# The VTEP database is served beside conf.db by the host's own ovsdb-server, at the socket
# vtep-ctl, ovs-vtep and ovn-controller-vtep use by default (Documentation/howto/vtep.rst). Debian's
# openvswitch-vtep init script would instead stop openvswitch-switch and start its own server:
# it is left disabled (ENABLE_OVS_VTEP=false, its default).
vtep_db=/etc/openvswitch/vtep.db
vtep_schema=/usr/share/openvswitch/vtep.ovsschema
ovs_vtep=/usr/share/openvswitch/scripts/ovs-vtep
vtep_socket=unix:/var/run/openvswitch/db.sock

# vtep_db_serve: create the database once, and have ovsdb-server serve it (ovsdb-server/add-db:
# no restart of Open vSwitch).
vtep_db_serve() {
    [[ -e $vtep_db ]] || ovsdb-tool create "$vtep_db" "$vtep_schema" >&2
    if ! ovs-appctl -t ovsdb-server ovsdb-server/list-dbs | grep -qx hardware_vtep; then
        ovs-appctl -t ovsdb-server ovsdb-server/add-db "$vtep_db" >&2
    fi
}

ovs_vtep_running() { ovs-appctl -t ovs-vtep version >/dev/null 2>&1; }
controller_vtep_running() { ovn-appctl -t ovn-controller-vtep version >/dev/null 2>&1; }
ovs_vtep_gone() { ! ovs_vtep_running; }
controller_vtep_gone() { ! controller_vtep_running; }

# vtep_daemons_stop: ovn-controller-vtep first (its exit removes its Chassis and bindings from the
# SB, ovn-controller-vtep.8), then ovs-vtep.
# shellcheck disable=SC2317 # a library function: not every script that includes it calls it
vtep_daemons_stop() {
    if controller_vtep_running; then
        timeout 30 ovn-appctl -t ovn-controller-vtep exit >&2 || log "ovn-controller-vtep did not exit cleanly"
        wait_for 30 "ovn-controller-vtep to exit" controller_vtep_gone
    fi
    if ovs_vtep_running; then
        ovs-appctl -t ovs-vtep exit >&2 || true
        wait_for 30 "ovs-vtep to exit" ovs_vtep_gone
    fi
}

# vtep_daemons_start: ovs-vtep emulating the physical switch, ovn-controller-vtep binding it to the SB.
vtep_daemons_start() {
    if ! ovs_vtep_running; then
        [[ -x $ovs_vtep ]] || die "$ovs_vtep not found: is openvswitch-vtep installed?"
        "$ovs_vtep" --log-file --pidfile --detach "$physical_switch" >&2
    fi
    if ! controller_vtep_running; then
        # Its pidfile's directory: no other OVN daemon runs on a VTEP host to make it.
        mkdir -p /var/run/ovn
        ovn-controller-vtep --vtep-db="$vtep_socket" --ovnsb-db="$sb_address" --log-file --pidfile --detach >&2
    fi
    wait_for 30 "ovs-vtep to answer" ovs_vtep_running
    wait_for 30 "ovn-controller-vtep to answer" controller_vtep_running
}
