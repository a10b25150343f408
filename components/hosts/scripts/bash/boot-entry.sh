# The boot entry: the program (boot-apply.sh) and what runs it at boot.
# Inputs: boot_dir, boot_entry, boot_program_path; script_bundle (the program is its boot-program
# file, copied out: the boot entry must outlive the bundle).

# write_if_changed PATH MODE TEXT: only a changed file is rewritten.
write_if_changed() {
    if [[ -f $1 && $(<"$1") == "$3" ]]; then
        chmod "$2" "$1"
        return 1
    fi
    printf '%s\n' "$3" >"$1.tmp.$$"
    chmod "$2" "$1.tmp.$$"
    mv -f "$1.tmp.$$" "$1"
}

boot_unit_path=/etc/systemd/system/$boot_entry.service
boot_sysv_path=/etc/init.d/$boot_entry

# boot_ovs_unit: the unit that starts Open vSwitch here (Debian: openvswitch-switch, RHEL: openvswitch).
boot_ovs_unit() {
    local unit
    for unit in openvswitch-switch.service openvswitch.service; do
        if systemctl cat "$unit" >/dev/null 2>&1; then
            printf '%s' "$unit"
            return 0
        fi
    done
    die "no Open vSwitch unit (openvswitch-switch or openvswitch) on this host: the boot entry would have nothing to run after"
}

# lock_boot_entry: one writer of the boot entry's files at a time (a host's components run their
# scripts concurrently); fd 8, held until the script exits.
lock_boot_entry() {
    mkdir -p "${boot_program_path%/*}"
    exec 8<"${boot_program_path%/*}"
    flock -w 60 8 || die "another script holds the lock on ${boot_program_path%/*} for over 60 s"
}

# boot_entry_install: the program, and what runs it at boot: with systemd a oneshot unit after
# Open vSwitch; otherwise an LSB init script that requires Open vSwitch's, enabled with
# update-rc.d (Debian) or chkconfig (RHEL). Idempotent.
# shellcheck disable=SC2317 # a library function: not every script that includes it calls it
boot_entry_install() {
    lock_boot_entry
    write_if_changed "$boot_program_path" 0755 "$(<"$script_bundle/boot-program")" || true
    if has_systemd; then
        local ovs_unit
        ovs_unit=$(boot_ovs_unit)
        if write_if_changed "$boot_unit_path" 0644 "[Unit]
Description=Host network state of ovn-kubernetes-as-code: OVS bridge addresses, routes, management ports
Requires=$ovs_unit
After=$ovs_unit ovs-vswitchd.service
Before=network-online.target ovn-host.service ovn-controller.service
Wants=network-online.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=$boot_program_path start

[Install]
WantedBy=multi-user.target"; then systemctl daemon-reload >&2; fi
        systemctl enable "$boot_entry.service" >&2
    else
        local ovs_service=openvswitch-switch
        [[ -e /etc/init.d/openvswitch-switch || ! -e /etc/init.d/openvswitch ]] || ovs_service=openvswitch
        write_if_changed "$boot_sysv_path" 0755 "#!/bin/sh
### BEGIN INIT INFO
# Provides:          $boot_entry
# Required-Start:    \$local_fs $ovs_service
# Required-Stop:
# X-Start-Before:    ovn-host ovn-controller
# Default-Start:     2 3 4 5
# Default-Stop:
# Short-Description: ovn-kubernetes-as-code host network state after Open vSwitch
### END INIT INFO
exec $boot_program_path \"\$@\"" || true
        if command -v update-rc.d >/dev/null; then
            update-rc.d "$boot_entry" defaults >&2
        elif command -v chkconfig >/dev/null; then
            chkconfig --add "$boot_entry" >&2
        else
            log "no update-rc.d or chkconfig here: make the init system run $boot_sysv_path start after Open vSwitch at boot"
        fi
    fi
}

# boot_entry_remove_unused: once no piece is left, nothing is left to restore at boot.
# shellcheck disable=SC2317 # a library function: not every script that includes it calls it
boot_entry_remove_unused() {
    local piece
    lock_boot_entry
    for piece in "$boot_dir"/*.conf; do [[ -e $piece ]] && return 0; done
    if [[ -e $boot_unit_path ]]; then
        if has_systemd; then systemctl disable "$boot_entry.service" >&2 || true; fi
        rm -f "$boot_unit_path"
        if has_systemd; then systemctl daemon-reload >&2; fi
    fi
    if [[ -e $boot_sysv_path ]]; then
        rm -f "$boot_sysv_path"
        if command -v update-rc.d >/dev/null; then
            update-rc.d "$boot_entry" remove >&2
        elif command -v chkconfig >/dev/null; then
            chkconfig --del "$boot_entry" >&2 || true
        fi
    fi
    rm -f "$boot_program_path"
    rmdir "$boot_dir" 2>/dev/null || true
    log "no host network piece left: boot entry $boot_entry removed"
}
