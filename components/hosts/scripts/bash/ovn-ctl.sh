# find_ovn_ctl: path of ovn-ctl (Debian 12 and current RHEL: /usr/share/ovn/scripts; older packages
# kept it with Open vSwitch's scripts).
find_ovn_ctl() {
    local path
    for path in /usr/share/ovn/scripts/ovn-ctl /usr/share/openvswitch/scripts/ovn-ctl; do
        if [[ -x $path ]]; then
            printf '%s\n' "$path"
            return 0
        fi
    done
    die "ovn-ctl not found: is OVN installed?"
}
