# Inputs: those of nic-move.sh, token, move_resource, and the boot entry's (boot-entry.sh).
# The second half of a NIC move: this script runs in a NEW SSH login, which reached the host over
# the moved path, so the move works; it disarms the watcher that would otherwise undo the move.
# A confirmed move is what the boot entry restores after a reboot: its staged piece takes effect.
# token "none": the move's last run changed nothing, so nothing waits for a confirmation.
keep_at_boot() {
    piece_promote "nic-$nic"
    boot_entry_install
}
lock_move
if [[ $token == none ]]; then
    keep_at_boot
    log "move of $nic onto $bridge: nothing to confirm"
    exit 0
fi
if [[ $(pending_token) == "$token" ]]; then
    rm -f "$(move_file pending)"
    stop_watcher
    rm -f "$(move_file undo)" "$(move_file watch)"
    printf '%s %s\n' "$token" "$(date -u +%FT%TZ)" >"$(move_file confirmed)"
    keep_at_boot
    log "move of $nic onto $bridge confirmed over a new SSH login"
    exit 0
fi
if [[ -s $(move_file confirmed) && $(<"$(move_file confirmed)") == "$token "* ]]; then
    keep_at_boot
    log "move of $nic onto $bridge was confirmed already"
    exit 0
fi
if [[ -s $(move_file reverted) && $(<"$(move_file reverted)") == "$token "* ]]; then
    read -r _ when result <"$(move_file reverted)"
    die "the move of $nic onto $bridge was undone at $when ($result): no new SSH login confirmed it in time. This login came over the old path. Check that the host is reachable once $nic is on $bridge, then replace $move_resource (pulumi up --replace <its URN>) to move it again"
fi
die "no move of $nic onto $bridge with this confirmation token is pending here (a later run replaced it, or the host restarted): replace $move_resource (pulumi up --replace <its URN>) to move it again"
