# The distribution's own network configuration must leave a NIC that moves onto an OVS bridge
# alone: at boot it would give the NIC its addresses back while the NIC is an OVS port, and the
# host would answer on neither. The project does not rewrite those files (DHCP, bonds, VLANs and
# each tool's semantics cannot be carried over faithfully, and a second writer of the same file
# is how hosts end up half-configured); it refuses before any change, naming the file and the fix.

# distro_network_config NIC: one line per configuration that would configure NIC at boot.
distro_network_config() {
    local nic=$1 re f state
    re=${nic//./\\.}
    # ifupdown: an inet/inet6 stanza other than `manual`.
    for f in /etc/network/interfaces /etc/network/interfaces.d/*; do
        [[ -f $f ]] || continue
        grep -nE "^[[:space:]]*iface[[:space:]]+${re}[[:space:]]+inet6?[[:space:]]+" "$f" |
            grep -vE "[[:space:]]manual[[:space:]]*$" | sed "s|^|$f:|" || true
    done
    # netplan and systemd-networkd: files that name the NIC.
    for f in /etc/netplan/*.yaml /run/netplan/*.yaml /lib/netplan/*.yaml /etc/systemd/network/*.network /run/systemd/network/*.network; do
        [[ -f $f ]] || continue
        grep -nE "(^|[^A-Za-z0-9_.-])${re}([^A-Za-z0-9_.-]|$)" "$f" | sed "s|^|$f:|" || true
    done
    # RHEL network-scripts.
    f=/etc/sysconfig/network-scripts/ifcfg-$nic
    if [[ -f $f ]] && ! grep -qiE '^[[:space:]]*NM_CONTROLLED=("?)no' "$f" && grep -qiE '^[[:space:]]*(BOOTPROTO=("?)(dhcp|static)|IPADDR)' "$f"; then
        printf '%s: configures %s\n' "$f" "$nic"
    fi
    # NetworkManager: a device it manages.
    if command -v nmcli >/dev/null; then
        state=$(nmcli -g GENERAL.STATE device show "$nic" 2>/dev/null || true)
        if [[ -n $state && $state != *unmanaged* ]]; then printf 'NetworkManager: device %s is managed (%s)\n' "$nic" "$state"; fi
    fi
}

# refuse_distro_network_config NIC BRIDGE
refuse_distro_network_config() {
    local found
    found=$(distro_network_config "$1")
    [[ -z $found ]] || die "$1 is configured by this host's own network configuration, which would give it its addresses back at boot while it is a port of OVS bridge $2, cutting the host off:
$found
The project restores $1's addresses on $2 at boot itself (boot entry $boot_entry). Hand $1 over, then run the update again: ifupdown: make its stanza 'iface $1 inet manual' (and inet6); netplan or systemd-networkd: remove $1 from the file named; RHEL network-scripts: NM_CONTROLLED=no and no BOOTPROTO/IPADDR in its ifcfg file; NetworkManager: 'unmanaged-devices=interface-name:$1' under [keyfile] in /etc/NetworkManager/conf.d/"
}
