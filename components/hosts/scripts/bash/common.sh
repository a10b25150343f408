# Functions every host script may use. They write to stderr only, so stdout stays free for the
# one result line a script prints last (a system-id, a MAC) for remote.Command's `stdout`.
log() { printf '%s\n' "$*" >&2; }
die() {
    printf 'error: %s\n' "$*" >&2
    exit 1
}
# wait_for SECONDS DESCRIPTION COMMAND...: poll a condition, bounded.
wait_for() {
    local seconds=$1 what=$2 i
    shift 2
    for ((i = 0; i < seconds * 10; i++)); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 0.1
    done
    die "timed out after $seconds s waiting for $what"
}
# shellcheck disable=SC2317 # a library function: not every script starts services
has_systemd() { [[ -d /run/systemd/system ]] && command -v systemctl >/dev/null 2>&1; }
