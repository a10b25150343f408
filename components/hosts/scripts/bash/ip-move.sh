# A NIC's addresses (IPv4 and IPv6) and static routes, read from the host and written back as
# `ip -batch` lines. Lines are "-4 <words>" or "-6 <words>": the family goes to `ip` itself,
# because a batch line such as `route replace default dev X` does not say its own family.

# addresses DEV: "-4 cidr[ brd X]" or "-6 cidr[ flags]" per global address of DEV, primary IPv4
# first. IPv6 addresses the kernel made from router advertisements (dynamic) are left out: the
# kernel manages them on whichever interface hears the advertisements.
addresses() {
    ip -o addr show dev "$1" scope global | awk '
        $3 == "inet" || ($3 == "inet6" && !/ dynamic /) {
            line = ($3 == "inet" ? "-4 " : "-6 ") $4
            for (i = 5; i <= NF; i++) {
                if ($i == "brd") line = line " brd " $(i + 1)
                else if ($i ~ /^(noprefixroute|nodad|home)$/) line = line " " $i
            }
            print line }'
}

# static_routes DEV: "-4 <route>" or "-6 <route>" per main-table route on DEV that the kernel did
# not make itself (proto kernel: from an address; proto ra and expiring: from router
# advertisements), output-only flags left out, ready for `route replace`.
static_routes() {
    local family
    for family in -4 -6; do
        ip "$family" route show dev "$1" | awk -v family="$family" '!/ proto (kernel|ra) / && !/ expires / {
            line = family
            for (i = 1; i <= NF; i++) {
                if ($i ~ /^(linkdown|dead|offload|trap|rt_offload|rt_trap|pervasive|notify)$/) continue
                line = line " " $i
            }
            print line }'
    done
}

# A line read from the host is still checked before it enters a batch.
safe_ip_words() { [[ $1 =~ ^-[46]\ [A-Za-z0-9./:\ _-]+$ ]] || die "unexpected ip output: $1"; }

# ip_lines OBJECT VERB DEV: stdin's OBJECT (address or route) lines as `OBJECT VERB … dev DEV`
# batch lines.
ip_lines() {
    local line
    while read -r line; do
        [[ -z $line ]] && continue
        safe_ip_words "$line"
        printf '%s %s %s %s dev %s\n' "${line:0:2}" "$1" "$2" "${line:3}" "$3"
    done
}
address_lines() { ip_lines address "$@"; }
route_lines() { ip_lines route "$@"; }

# delete_address_lines DEV: stdin's address lines as deletions from DEV, secondaries first
# (deleting a primary IPv4 address first would take its secondaries with it).
delete_address_lines() {
    local -a lines=()
    local i cidr
    mapfile -t lines
    for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
        [[ -z ${lines[i]} ]] && continue
        safe_ip_words "${lines[i]}"
        cidr=${lines[i]:3}
        printf '%s address del %s dev %s\n' "${lines[i]:0:2}" "${cidr%% *}" "$1"
    done
}

# apply_lines [--force] WHAT LINES: one `ip -batch` per family (IPv4 first), each applying its
# lines in one process, so a switch-over is immediate. --force goes on past failed lines (undo:
# some of what it removes may be gone already); the status still says whether all succeeded.
apply_lines() {
    local -a force=()
    if [[ $1 == --force ]]; then
        force=(-force)
        shift
    fi
    local what=$1 lines=$2 family batch line rc=0
    while read -r line; do [[ -z $line ]] || safe_ip_words "$line"; done <<<"$lines"
    for family in -4 -6; do
        batch=$(awk -v f="$family" '$1 == f { sub(/^-[46] /, ""); print }' <<<"$lines")
        [[ -z $batch ]] && continue
        ip "${force[@]}" "$family" -batch - <<<"$batch" >&2 || rc=1
    done
    if ((rc != 0)); then
        log "$what: ip -batch failed"
        return 1
    fi
}

# wait_for_dad DEV: IPv6 addresses new on DEV are unusable while duplicate address detection
# runs (tentative); wait for it to end, and fail when another host on the link holds one.
no_tentative_address() { [[ -z $(ip -6 -o addr show dev "$1" tentative -dadfailed) ]]; }
wait_for_dad() {
    wait_for 10 "IPv6 duplicate address detection on $1" no_tentative_address "$1"
    [[ -z $(ip -6 -o addr show dev "$1" dadfailed) ]] || die "an IPv6 address on $1 failed duplicate address detection: another host on the link holds it"
}
