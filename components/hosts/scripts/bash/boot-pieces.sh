# The host network pieces that the boot entry re-applies after Open vSwitch starts (boot-apply.sh).
# Input: boot_dir.
# A piece is one component's host state (a NIC move, a management port) as "key value" lines in
# boot_dir/<name>.conf, mode 0600. `<name>.conf.next` is a NIC move's piece waiting for the move's
# confirmation: the boot entry ignores it, so a reboot never repeats a move nobody confirmed.
piece_path() { printf '%s/%s.conf' "$boot_dir" "$1"; }

# piece_write PATH: stdin becomes the file PATH, atomically, readable by root only.
# shellcheck disable=SC2317 # a library function: not every script that includes it calls it
piece_write() {
    mkdir -p "$boot_dir"
    chmod 0700 "$boot_dir"
    (umask 077 && cat >"$1.tmp.$$")
    mv -f "$1.tmp.$$" "$1"
}

# piece_promote NAME: a staged piece (NAME.conf.next) becomes the piece the boot entry applies.
# shellcheck disable=SC2317 # a library function: not every script that includes it calls it
piece_promote() {
    local path
    path=$(piece_path "$1")
    if [[ -e $path.next ]]; then mv -f "$path.next" "$path"; fi
}

# piece_lines KEY FILE: the values of KEY's lines in a piece.
# shellcheck disable=SC2317 # a library function: not every script that includes it calls it
piece_lines() { awk -v k="$1" '$1 == k { sub(/^[^ ]+ /, ""); print }' "$2"; }
