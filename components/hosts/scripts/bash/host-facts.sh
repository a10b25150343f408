# Inputs: repo_file (the file the package step would write, empty when none), repo_id (rhel: the
# repository id it would define, else empty), gw_nic, gw_bridge (a shared gateway's NIC and the
# bridge it moves onto, empty when none). Changes nothing: prints what the host is, one
# `key value` line each, for ../hostFacts.ts to judge.
os_field() { sed -n "s/^$1=//p" /etc/os-release 2>/dev/null | tr -d '"' | head -n 1; }
printf 'os_id %s\n' "$(os_field ID)"
printf 'os_like %s\n' "$(os_field ID_LIKE)"
printf 'os_name %s\n' "$(os_field PRETTY_NAME)"
if [[ -n $repo_file && -e $repo_file ]]; then
    printf 'repo_file %s\n' "$repo_file"
    # The package that ships it; rpm prints "not owned" on stdout, hence the exit codes.
    owner=$(dpkg-query -S "$repo_file" 2>/dev/null) || owner=$(rpm -qf --qf '%{NAME}\n' "$repo_file" 2>/dev/null) || owner=''
    owner=${owner%%$'\n'*}
    [[ -z $owner ]] || printf 'repo_owner %s\n' "${owner%%:*}"
fi
if [[ -n $repo_id ]]; then
    for f in /etc/yum.repos.d/*.repo; do
        [[ -f $f && $f != "$repo_file" ]] || continue
        if grep -qxF "[$repo_id]" "$f"; then printf 'repo_id_in %s\n' "$f"; fi
    done
fi
if [[ -n $gw_nic ]]; then
    # Once moved, the NIC's addresses live on the OVS bridge it is a port of, which is not the
    # configured one while a bridge is being renamed.
    moved_to=$(ovs-vsctl --timeout=5 port-to-br "$gw_nic" 2>/dev/null || true)
    devices=("$gw_nic" "$gw_bridge")
    [[ -z $moved_to || $moved_to == "$gw_bridge" ]] || devices+=("$moved_to")
    for dev in "${devices[@]}"; do
        if ! ip link show dev "$dev" >/dev/null 2>&1; then
            printf 'no_device %s\n' "$dev"
            continue
        fi
        ip -o -4 addr show dev "$dev" | awk -v dev="$dev" '{ print "address", dev, $4 }'
    done
fi
