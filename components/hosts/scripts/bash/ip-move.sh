# Moving IPv4 addresses and routes between a NIC and its OVS bridge without cutting an SSH
# session that runs over them: one `ip -batch` adds everything on the target, re-points the
# routes, and only then deletes the addresses on the source.

# global_addrs DEV: "cidr[ brd X]" per IPv4 global address, primary first.
global_addrs() {
    ip -4 -o addr show dev "$1" scope global | awk '{
        line = $4
        for (i = 5; i < NF; i++) if ($i == "brd") line = line " brd " $(i + 1)
        print line }'
}

# static_routes DEV: the IPv4 routes of the main table on DEV that the kernel did not derive from
# an address ("proto kernel"), minus output-only flags, ready for `ip route replace`.
static_routes() {
    ip -4 route show dev "$1" | awk '!/ proto kernel / {
        line = ""
        for (i = 1; i <= NF; i++) {
            if ($i ~ /^(linkdown|dead|offload|trap|rt_offload|rt_trap|pervasive|notify)$/) continue
            line = line (line == "" ? "" : " ") $i
        }
        print line }'
}

# A route or address line from the host itself is still checked before it enters a batch.
safe_ip_words() { [[ $1 =~ ^[A-Za-z0-9./:\ _-]+$ ]] || die "unexpected ip output: $1"; }

# copy_ipv4_batch FROM TO: `ip -batch` lines that give TO the addresses and static routes of FROM.
copy_ipv4_batch() {
    local from=$1 to=$2 line
    printf 'link set dev %s up\n' "$to"
    while read -r line; do
        [[ -z $line ]] && continue
        safe_ip_words "$line"
        printf 'address replace %s dev %s\n' "$line" "$to"
    done < <(global_addrs "$from")
    while read -r line; do
        [[ -z $line ]] && continue
        safe_ip_words "$line"
        printf 'route replace %s dev %s\n' "$line" "$to"
    done < <(static_routes "$from")
}

# delete_ipv4_batch DEV: `ip -batch` lines deleting DEV's global IPv4 addresses, secondaries
# first (deleting a primary first would take its secondaries with it).
delete_ipv4_batch() {
    local -a addrs=()
    local i
    mapfile -t addrs < <(global_addrs "$1")
    for ((i = ${#addrs[@]} - 1; i >= 0; i--)); do
        printf 'address del %s dev %s\n' "${addrs[i]%% *}" "$1"
    done
}

# run_ip_batch FILE: one `ip` process applies every line, so the switch-over is immediate.
run_ip_batch() {
    if ! ip -batch "$1"; then
        rm -f "$1"
        die "ip -batch failed"
    fi
    rm -f "$1"
}

# move_ipv4 FROM TO: move every global IPv4 address and static route of FROM onto TO.
move_ipv4() {
    local batch
    batch=$(mktemp)
    { copy_ipv4_batch "$1" "$2" && delete_ipv4_batch "$1"; } >"$batch"
    run_ip_batch "$batch"
}
