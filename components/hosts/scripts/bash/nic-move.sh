# Moving a NIC onto an OVS bridge as a transaction. Inputs: mode, nic, bridge, owner, owner_key,
# claim_key, state_dir, confirm_seconds, boot_dir (and the script's restore_file, datapath_type). A wrong move can lock the host out, so:
# - every change of a run is recorded in undo_* BEFORE it is made, and a failure at any step undoes
#   all of them (on_move_exit), leaving the NIC as it was: addresses, routes, bridge membership;
# - a move that succeeded stays only if a second, fresh SSH login confirms it (the confirm script)
#   within a bounded time: a detached watcher (deadman_watch) undoes it otherwise.
# Its files in state_dir: see nic-move-state.sh.
#
# Test hooks, honoured only from files in state_dir (root-only, on tmpfs, never written by the
# project): `fail-at` holding a step name fails the move right after that step's change;
# `confirm-seconds` holding 1-600 replaces the confirmation time.

# bridge_claim BRIDGE: which move resource holds the bridge now (gateway.ts, BRIDGE_CLAIM_KEY);
# empty on bridges made before claims existed.
bridge_claim() { ovs-vsctl --timeout=10 --if-exists get Bridge "$1" "external_ids:\"$claim_key\"" 2>/dev/null | tr -d '"' || true; }

# ssh_server_address: the host address the current SSH session came in on (none outside SSH).
ssh_server_address() {
    local -a f
    read -ra f <<<"${SSH_CONNECTION:-}"
    printf '%s' "${f[2]:-}"
}

current_step=""
step() {
    current_step=$1
    log "step $1"
}
fail_point() {
    local hook=$state_dir/fail-at
    if [[ -f $hook && $(<"$hook") == "$current_step" ]]; then die "injected failure after step $current_step (test hook $hook)"; fi
}

# What this run changed, so exactly that is undone: 1 = made here.
undo_bridge=0 undo_filter=0 undo_port=0 undo_link_down=0 undo_restore_file=0 undo_copied=0
# The NIC's addresses and static routes when the run began (lines of ip-move.sh).
undo_addrs="" undo_routes=""

# undo_record: the variables that undo_move needs, as bash assignments.
undo_record() {
    local name
    for name in mode nic bridge owner owner_key state_dir boot_dir datapath_type restore_file \
        undo_bridge undo_filter undo_port undo_link_down undo_restore_file undo_copied undo_addrs undo_routes; do
        printf '%s=%q\n' "$name" "${!name}"
    done
}

# undo_move: back to the state recorded in undo_*. Best effort: every part is tried, and the
# status says whether all of them succeeded.
undo_move() {
    local ok=0 back
    # Addresses and routes first, onto the NIC, then off the bridge: the same order as the move,
    # so an SSH session over them keeps a path.
    back=$(address_lines replace "$nic" <<<"$undo_addrs"; route_lines replace "$nic" <<<"$undo_routes")
    if ((undo_copied)); then back+=$'\n'$(delete_address_lines "$bridge" <<<"$undo_addrs"); fi
    if [[ -n ${back//$'\n'/} ]]; then apply_lines --force "restore addresses and routes of $nic" "$back" || ok=1; fi
    if ((undo_filter)); then nft delete table netdev "ovn-k8s-$nic" || ok=1; fi
    if ((undo_port)); then ovs-vsctl --timeout=10 --if-exists del-port "$bridge" "$nic" || ok=1; fi
    if ((undo_bridge)); then ovs-vsctl --timeout=10 --if-exists del-br "$bridge" || ok=1; fi
    if ((undo_link_down)); then ip link set dev "$nic" down || ok=1; fi
    if ((undo_restore_file)); then rm -f "$restore_file"; fi
    # The boot entry keeps the confirmed move, never this one.
    rm -f "$(piece_path "nic-$nic").next"
    # Routes the kernel dropped while the NIC was away from its IP stack come back now.
    back=$(route_lines replace "$nic" <<<"$undo_routes")
    if [[ -n $back ]]; then apply_lines --force "restore routes of $nic" "$back" || ok=1; fi
    return "$ok"
}

# On exit: a move that fails at any step is undone, and the last line names the step.
move_open=0
on_move_exit() {
    local rc=$?
    ((move_open && rc != 0)) || return 0
    set +e
    # Armed already (a failure after arming): this undo replaces the watcher's.
    if [[ -e $(move_file pending) ]]; then
        stop_watcher
        rm -f "$(move_file pending)" "$(move_file undo)" "$(move_file watch)"
    fi
    if undo_move; then
        printf 'error: moving %s onto %s failed at step %s; undone: %s is as before (addresses, routes, bridge)\n' "$nic" "$bridge" "$current_step" "$nic" >&2
    else
        printf 'error: moving %s onto %s failed at step %s, and undoing it failed in part: check %s and %s by hand\n' "$nic" "$bridge" "$current_step" "$nic" "$bridge" >&2
    fi
    exit "$rc"
}


# revert_unconfirmed: a move that was never confirmed is not trusted: undo it before anything else.
revert_unconfirmed() {
    [[ -e $(move_file pending) ]] || return 0
    stop_watcher
    log "an earlier move of $nic was never confirmed: undoing it first"
    # shellcheck source=/dev/null
    source "$(move_file undo)" || die "$(move_file undo) is unreadable: check $nic and $bridge by hand, then remove $(move_file pending)"
    undo_move || die "undoing the unconfirmed earlier move of $nic failed in part: check $nic and $bridge by hand"
    rm -f "$(move_file pending)" "$(move_file undo)" "$(move_file watch)"
    undo_bridge=0 undo_filter=0 undo_port=0 undo_link_down=0 undo_restore_file=0 undo_copied=0 undo_addrs="" undo_routes=""
}

# confirm_seconds_now: the confirmation time (the model's, or the test hook's).
confirm_seconds_now() {
    local hook=$state_dir/confirm-seconds value
    if [[ -f $hook ]]; then
        value=$(<"$hook")
        if [[ $value =~ ^[1-9][0-9]{0,2}$ ]] && ((value <= 600)); then
            printf '%s' "$value"
            return
        fi
    fi
    printf '%s' "$confirm_seconds"
}

# arm_deadman: record the move, start its watcher detached from this SSH session (setsid; no
# descriptor of the session kept open, so the session ends now), and print the token the confirm
# script must present.
arm_deadman() {
    local token seconds watch
    token=$(cat /proc/sys/kernel/random/uuid)
    seconds=$(confirm_seconds_now)
    watch=$(move_file watch)
    undo_record >"$(move_file undo)"
    printf '%s\n' "$token" >"$(move_file pending)"
    {
        printf 'set -uo pipefail\nexport LC_ALL=C\n'
        undo_record
        printf 'token=%q\nseconds=%q\n' "$token" "$seconds"
        declare -f
        printf 'deadman_watch\n'
    } >"$watch"
    # 9>&-: the watcher must not inherit this run's lock, or it would hold it while it waits.
    setsid -f bash "$watch" </dev/null >>"$(move_file log)" 2>&1 9>&-
    log "move of $nic onto $bridge done; it is undone in $seconds s unless a new SSH login confirms it"
    printf 'confirm-token %s\n' "$token"
}

# deadman_watch (the detached watcher): wait for the confirmation; without it, undo the move.
deadman_watch() {
    printf '%s\n' "$$" >"$(move_file pid)"
    local deadline=$((SECONDS + seconds))
    while ((SECONDS < deadline)); do
        [[ $(pending_token) == "$token" ]] || exit 0
        sleep 0.2
    done
    exec 9>>"$(move_file lock)"
    flock 9
    [[ $(pending_token) == "$token" ]] || exit 0
    log "$(date -u +%FT%TZ) no confirmation of the move of $nic onto $bridge within $seconds s: undoing it"
    local result=restored
    undo_move || result="restored in part"
    printf '%s %s %s\n' "$token" "$(date -u +%FT%TZ)" "$result" >"$(move_file reverted)"
    rm -f "$(move_file pending)" "$(move_file undo)" "$(move_file pid)"
    log "move of $nic undone ($result)"
}
