# Inputs: member_ip, peer_ips (the other members, space separated), proto (tcp|ssl), nb_port,
# sb_port, nb_raft_port, sb_raft_port, bootstrap (yes on the first member), ssl (yes|no).
# One member of the clustered (raft) NB and SB, and an ovn-northd that follows their leaders.
# Listeners and raft bind this member's address only. They come from the command line, not from
# Connection rows: those are replicated to every member, so one naming this address would be
# opened (and fail) on the others too.
ssl_dir=/etc/ovn
ssl_key=$ssl_dir/ovn-central-privkey.pem
ssl_cert=$ssl_dir/ovn-central-cert.pem
ssl_ca=$ssl_dir/ovn-central-cacert.pem
db_dir=/var/lib/ovn
run_dir=/var/run/ovn
dropin_name=ovn-kubernetes-as-code.conf

if [[ $ssl == yes ]]; then
    read_secrets
    write_ssl_files
fi
client_ssl=()
[[ $ssl == yes ]] && client_ssl=(--private-key="$ssl_key" --certificate="$ssl_cert" --ca-cert="$ssl_ca")

# remotes_of PORT: every member as "proto:ip:port", comma separated (what OVN clients take).
remotes_of() {
    local port=$1 ip out=""
    for ip in $member_ip $peer_ips; do out+="${out:+,}$proto:$ip:$port"; done
    printf '%s\n' "$out"
}
nb_remotes=$(remotes_of "$nb_port")
sb_remotes=$(remotes_of "$sb_port")

# serves_clustered SOCKET DB: the local server answers and holds DB as a raft member.
serves_clustered() {
    ovsdb-client --timeout=5 query "unix:$1" \
        "[\"_Server\",{\"op\":\"select\",\"table\":\"Database\",\"where\":[[\"name\",\"==\",\"$2\"]],\"columns\":[\"model\"]}]" |
        grep -q '"clustered"'
}
# peer_serves PORT DB: another member already serves DB (a cluster exists to join).
peer_serves() {
    local ip
    for ip in $peer_ips; do
        if ovsdb-client --timeout=3 "${client_ssl[@]}" list-dbs "$proto:$ip:$1" 2>/dev/null | grep -qx "$2"; then return 0; fi
    done
    return 1
}

ctl=$(find_ovn_ctl)
# member_opts DB RAFT_PORT: the ovn-ctl options of one database of this member; the listener
# follows the command, after "--" (ovn-ctl passes what follows to ovsdb-server).
member_opts() {
    local db=$1 raft=$2
    printf '%s\n' "--db-$db-cluster-local-addr=$member_ip" "--db-$db-cluster-local-port=$raft" \
        "--db-$db-cluster-local-proto=$proto" "--db-$db-use-remote-in-db=no" "--db-$db-create-insecure-remote=no"
    if [[ $ssl == yes ]]; then
        printf '%s\n' "--ovn-$db-db-ssl-key=$ssl_key" "--ovn-$db-db-ssl-cert=$ssl_cert" "--ovn-$db-db-ssl-ca-cert=$ssl_ca"
    fi
}
northd_opts() {
    printf '%s\n' --ovn-manage-ovsdb=no "--ovn-northd-nb-db=$nb_remotes" "--ovn-northd-sb-db=$sb_remotes"
    if [[ $ssl == yes ]]; then
        printf '%s\n' "--ovn-northd-ssl-key=$ssl_key" "--ovn-northd-ssl-cert=$ssl_cert" "--ovn-northd-ssl-ca-cert=$ssl_ca"
    fi
}

# prepare DB NAME CLIENT_PORT RAFT_PORT: a standalone server (a single central growing into a
# cluster) is stopped; the first member then converts its file (ovn-ctl keeps a backup), the
# others join the members that exist. A first member whose file is gone joins too when the others
# already serve the database: creating a second cluster beside them would split it.
prepare() {
    local db=$1 name=$2 port=$3 raft=$4 peer remotes=()
    local file=$db_dir/ovn${db}_db.db sock=$run_dir/ovn${db}_db.sock
    if ovsdb-client --timeout=5 list-dbs "unix:$sock" >/dev/null 2>&1 && ! serves_clustered "$sock" "$name"; then
        log "stopping the standalone $name server: it restarts as a raft member"
        "$ctl" "stop_${db}_ovsdb" >&2
        "$ctl" stop_northd >&2
    fi
    if [[ -e $file ]] && ovsdb-tool db-is-clustered "$file"; then return 0; fi
    if [[ $bootstrap == yes ]] && ! peer_serves "$port" "$name"; then return 0; fi
    if [[ -e $file ]]; then mv -f "$file" "$file.standalone-$(date +%s)"; fi
    for peer in $peer_ips; do remotes+=("$proto:$peer:$raft"); done
    mkdir -p "$db_dir"
    ovsdb-tool join-cluster "$file" "$name" "$proto:$member_ip:$raft" "${remotes[@]}"
    log "$name on $member_ip joins the cluster of ${remotes[*]}"
}
prepare nb OVN_Northbound "$nb_port" "$nb_raft_port"
prepare sb OVN_Southbound "$sb_port" "$sb_raft_port"
mapfile -t nb_opts < <(member_opts nb "$nb_raft_port")
mapfile -t sb_opts < <(member_opts sb "$sb_raft_port")
nb_listener=p$proto:$nb_port:$member_ip
sb_listener=p$proto:$sb_port:$member_ip
mapfile -t nd_opts < <(northd_opts)

northd_args() { tr '\0' ' ' <"/proc/$(cat "$run_dir/ovn-northd.pid")/cmdline"; }
if has_systemd; then
    # Debian's units run `ovn-ctl run_nb_ovsdb $OVN_CTL_OPTS` (and sb, northd): one drop-in each.
    changed=no
    dropin() {
        local unit=$1 dir text
        shift
        dir=/etc/systemd/system/$unit.service.d
        text=$(printf '[Service]\nEnvironment="OVN_CTL_OPTS=%s"\n' "$*")
        if [[ ! -e $dir/$dropin_name || $(cat "$dir/$dropin_name") != "$text" ]]; then
            mkdir -p "$dir"
            printf '%s\n' "$text" >"$dir/$dropin_name"
            changed=yes
        fi
    }
    dropin ovn-ovsdb-server-nb "${nb_opts[@]}" -- "--remote=$nb_listener"
    dropin ovn-ovsdb-server-sb "${sb_opts[@]}" -- "--remote=$sb_listener"
    dropin ovn-northd "${nd_opts[@]:1}"
    systemctl daemon-reload
    if [[ $changed == yes ]]; then systemctl restart ovn-central >&2; else systemctl enable --now ovn-central >&2; fi
else
    "$ctl" "${nb_opts[@]}" start_nb_ovsdb -- "--remote=$nb_listener" >&2
    "$ctl" "${sb_opts[@]}" start_sb_ovsdb -- "--remote=$sb_listener" >&2
    if ovn-appctl -t ovn-northd version >/dev/null 2>&1 && [[ $(northd_args) != *"--ovnnb-db=$nb_remotes "* ]]; then
        "$ctl" stop_northd >&2
    fi
    "$ctl" "${nd_opts[@]}" start_northd >&2
fi

member_running() {
    serves_clustered "$run_dir/ovnnb_db.sock" OVN_Northbound && serves_clustered "$run_dir/ovnsb_db.sock" OVN_Southbound &&
        ovn-appctl -t ovn-northd version
}
wait_for 60 "the clustered Northbound, Southbound databases and ovn-northd on $member_ip" member_running
connected() { ovsdb-client --timeout=5 wait "unix:$run_dir/ovn$1_db.sock" "$2" connected; }
wait_for 60 "OVN_Northbound on $member_ip to join its cluster" connected nb OVN_Northbound
wait_for 60 "OVN_Southbound on $member_ip to join its cluster" connected sb OVN_Southbound

if [[ $bootstrap == yes ]]; then
    # What a single central wrote into the databases it had: Connection and SSL rows, unused now.
    for c in ovn-nbctl ovn-sbctl; do
        if [[ -n $("$c" --no-leader-only --timeout=10 get-connection) ]]; then "$c" --no-leader-only --timeout=10 del-connection; fi
        if [[ -n $("$c" --no-leader-only --timeout=10 get-ssl) ]]; then "$c" --no-leader-only --timeout=10 del-ssl; fi
    done
fi
log "OVN central member $member_ip: NB $nb_remotes, SB $sb_remotes"
