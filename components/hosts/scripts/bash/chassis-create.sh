# Inputs: writer (pulumi|ovnkube), controller_unit, ovn_remote, ovn_nb, encap_ip, encap_type,
# k8s_api_server, bridge_mappings (empty: none), datapath_type (system|netdev), controller (packages:
# the host's ovn-controller; image: a container of the ovnkube-node pod runs it, writer=ovnkube only).
# Every external_id this script owns is either set to the model's value or removed, in one
# ovs-vsctl transaction (the secret ones in a second one fed through stdin), so removing a
# setting from the stack removes it from the host.
# With writer=ovnkube, ovnkube-node writes ovn-remote, ovn-encap-ip/type, hostname, the bridge
# mappings and the SSL table from its flags (README "Who writes what"): this script then owns only
# what ovnkube never writes and must not touch the rest.
id_file=/etc/openvswitch/system-id.conf
brint_record=/etc/openvswitch/ovn-kubernetes-as-code-br-int
ssl_dir=/etc/openvswitch
ssl_key=$ssl_dir/ovn-controller-privkey.pem
ssl_cert=$ssl_dir/ovn-controller-cert.pem
ssl_ca=$ssl_dir/ovn-controller-cacert.pem

controller_running() { ovn-appctl -t ovn-controller version; }
start_controller() {
    if ! controller_running >/dev/null 2>&1; then
        if has_systemd; then
            systemctl enable --now "$controller_unit" >&2
        else
            "$(find_ovn_ctl)" start_controller >&2
        fi
    fi
    wait_for 30 "ovn-controller" controller_running
}

wait_for 30 "ovsdb-server" ovs-vsctl --timeout=2 show

# br-int is made by ovn-controller when it first starts, unless the host had one: recorded, so that
# delete removes it only when it is this chassis'.
if [[ ! -e $brint_record ]] && ! ovs-vsctl --timeout=10 br-exists br-int; then
    : >"$brint_record"
fi

# system-id: created once and reused forever, so the chassis keeps its identity (gateway routers
# are pinned to it with options:chassis). Adopt the one OVS already carries, if any.
if [[ ! -s $id_file ]]; then
    system_id=$(ovs-vsctl --timeout=10 --if-exists get Open_vSwitch . external_ids:system-id | tr -d '"')
    [[ -n $system_id ]] || system_id=$(uuidgen 2>/dev/null || cat /proc/sys/kernel/random/uuid)
    mkdir -p "${id_file%/*}"
    printf '%s\n' "$system_id" >"$id_file.tmp"
    mv -f "$id_file.tmp" "$id_file"
fi
system_id=$(head -n 1 "$id_file")
[[ $system_id =~ ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$ ]] || die "$id_file does not hold a valid system-id"

# Secrets (k8s token and CA for https, SSL client material for ssl:) come on stdin.
if [[ $writer == pulumi && $k8s_api_server == https://* || $ovn_remote == ssl:* ]]; then read_secrets; fi

if [[ $writer == ovnkube ]]; then
    # ovnkube-node presents these client files to NB/SB and puts them in the SSL table itself.
    if [[ $ovn_remote == ssl:* ]]; then
        write_ssl_files
    fi
    ids=("external_ids:system-id=\"$system_id\"" "external_ids:ovn-nb=\"$ovn_nb\"")
    if [[ $datapath_type == netdev ]]; then
        ovs-vsctl --timeout=10 set Open_vSwitch . "${ids[@]}" external_ids:ovn-bridge-datapath-type=netdev
    else
        ovs-vsctl --timeout=10 set Open_vSwitch . "${ids[@]}" -- remove Open_vSwitch . external_ids ovn-bridge-datapath-type
    fi
    if [[ $controller == packages ]]; then start_controller; fi
    # Not connected yet: ovn-remote comes from ovnkube-node, which starts after this.
    log "chassis $system_id ready for ovnkube-node"
    printf '%s\n' "$system_id"
    exit 0
fi

set_ids=(
    "external_ids:system-id=\"$system_id\""
    "external_ids:ovn-remote=\"$ovn_remote\""
    "external_ids:ovn-nb=\"$ovn_nb\""
    "external_ids:ovn-encap-ip=\"$encap_ip\""
    "external_ids:ovn-encap-type=\"$encap_type\""
    "external_ids:k8s-api-server=\"$k8s_api_server\""
)
absent_ids=()
if [[ -n $bridge_mappings ]]; then
    set_ids+=("external_ids:ovn-bridge-mappings=\"$bridge_mappings\"")
else
    absent_ids+=(ovn-bridge-mappings)
fi
# br-int must use the same datapath as the host's other bridges (netdev: userspace only).
if [[ $datapath_type == netdev ]]; then
    set_ids+=("external_ids:ovn-bridge-datapath-type=netdev")
else
    absent_ids+=(ovn-bridge-datapath-type)
fi
# https: the token and CA go in through stdin after this transaction (ovs_set_secret_ids), never
# through ovs-vsctl's argv.
if [[ $k8s_api_server == https://* ]]; then
    need_secret k8s-api-token
    need_secret k8s-ca-certificate
else
    absent_ids+=(k8s-api-token k8s-ca-certificate)
fi

# SSL towards NB/SB: ovn-controller takes its client key, certificate and CA from the local
# Open_vSwitch SSL table.
if [[ $ovn_remote == ssl:* ]]; then
    write_ssl_files
    ovs-vsctl --timeout=10 set-ssl "$ssl_key" "$ssl_cert" "$ssl_ca"
elif [[ -e $ssl_key ]]; then
    ovs-vsctl --timeout=10 del-ssl
    rm -f "$ssl_key" "$ssl_cert" "$ssl_ca"
fi

transaction=(set Open_vSwitch . "${set_ids[@]}")
if ((${#absent_ids[@]} > 0)); then transaction+=(-- remove Open_vSwitch . external_ids "${absent_ids[@]}"); fi
ovs-vsctl --timeout=10 "${transaction[@]}"
if [[ $k8s_api_server == https://* ]]; then ovs_set_secret_ids k8s-api-token=k8s-api-token k8s-ca-certificate=k8s-ca-certificate; fi

start_controller
# ovn-controller reads these settings live; connected means the chassis is in the SB.
controller_connected() { [[ $(ovn-appctl -t ovn-controller connection-status) == connected ]]; }
wait_for 60 "ovn-controller to connect to the Southbound database at $ovn_remote" controller_connected
log "chassis $system_id connected to $ovn_remote"
# Last stdout line: the system-id, read by the Chassis component.
printf '%s\n' "$system_id"
