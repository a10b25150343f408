# A NIC move's state on the host (see nic-move.sh), shared by the move, its undo and its
# confirmation. Inputs: nic, state_dir. Per NIC, in state_dir (tmpfs: a reboot forgets pending
# moves): move-<nic>.lock (one writer at a time), .pending (the token to confirm), .undo (the
# record), .watch (the watcher's program), .pid, .confirmed / .reverted (outcomes, by token),
# .log (the watcher's output).
move_file() { printf '%s/move-%s.%s' "$state_dir" "$nic" "$1"; }

# lock_move: one move, revert or confirmation of this NIC at a time (fd 9, held until exit).
lock_move() {
    mkdir -p "$state_dir"
    chmod 0700 "$state_dir"
    exec 9>>"$(move_file lock)"
    flock -w 60 9 || die "another change of $nic holds $(move_file lock) for over 60 s"
}

pending_token() { if [[ -s $(move_file pending) ]]; then printf '%s' "$(<"$(move_file pending)")"; fi; }

# process_gone PID: exited (a zombie waiting for its reaper counts as gone). Called through
# wait_for, which shellcheck cannot follow:
# shellcheck disable=SC2317
process_gone() { [[ ! -e /proc/$1 || $(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) == Z ]]; }

# stop_watcher: end a pending move's watcher, if it still runs (its pid file names it; the
# command line proves the pid was not reused).
stop_watcher() {
    local pid_file pid
    pid_file=$(move_file pid)
    [[ -s $pid_file ]] || return 0
    pid=$(<"$pid_file")
    if [[ $pid =~ ^[0-9]+$ ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$(move_file watch)"; then
        kill "$pid" 2>/dev/null || true
        wait_for 10 "the watcher of the move of $nic (pid $pid) to end" process_gone "$pid"
    fi
    rm -f "$pid_file"
}
