# Secrets arrive on stdin as "secret lines" (see ../secrets.ts): `<name> <base64>` per line.
# read_secrets fills the associative array `secret`; nothing here prints a secret.
declare -A secret=()
read_secrets() {
    local key value
    while IFS=' ' read -r key value || [[ -n ${key:-} ]]; do
        [[ -z $key ]] && continue
        case $key in
            k8s-api-token | k8s-ca-certificate | ssl-private-key | ssl-certificate | ssl-ca-certificate) ;;
            ipsec-private-key | ipsec-certificate | ipsec-ca-certificate) ;;
            *) die "stdin: unknown secret name (expected <name> <base64> lines)" ;;
        esac
        [[ $value =~ ^[A-Za-z0-9+/]*=*$ ]] || die "stdin: secret $key is not base64"
        # printf is a builtin: the encoded value reaches base64 through a pipe, not an argv.
        secret[$key]=$(printf '%s' "$value" | base64 -d) || die "stdin: secret $key does not decode"
        key=''
    done
}
need_secret() { [[ -n ${secret[$1]:-} ]] || die "secret $1 is required on stdin"; }
# write_secret_file NAME PATH: mode 0600 from the start, replaced atomically.
write_secret_file() {
    need_secret "$1"
    local tmp
    tmp=$(mktemp "$2.XXXXXX")
    chmod 0600 "$tmp"
    printf '%s\n' "${secret[$1]}" >"$tmp"
    mv -f "$tmp" "$2"
}
# write_ssl_files: the SSL private key, certificate and CA from stdin's secrets into $ssl_key,
# $ssl_cert and $ssl_ca (the caller's paths).
# shellcheck disable=SC2154 # assigned by the bodies that call it; others read only the secrets
write_ssl_files() {
    mkdir -p "${ssl_key%/*}" "${ssl_cert%/*}" "${ssl_ca%/*}"
    write_secret_file ssl-private-key "$ssl_key"
    write_secret_file ssl-certificate "$ssl_cert"
    write_secret_file ssl-ca-certificate "$ssl_ca"
}
# ovs_set_secret_ids KEY=NAME...: external_ids KEY of the local Open_vSwitch row set to secret NAME.
# Neither ovs-vsctl nor ovsdb-client (OVS 3.1 and 3.5 alike) takes a value from anything but its
# argv, which `ps` shows and ovs-vsctl logs ("Called as …"). So the values travel through a pipe
# into a small JSON-RPC client (python3, which Open vSwitch's own tools need) that sends one
# `transact` to ovsdb-server's socket (RFC 7047): the keys replaced in one transaction, nothing
# logged, and only OVSDB's error names reported, never the request. Bash variables hold no NUL,
# so NUL separates the keys and values on the pipe; printf is a builtin, so no argv sees them.
ovs_set_secret_ids() {
    local pair program
    command -v python3 >/dev/null || die "python3 is needed to write secrets into Open vSwitch without exposing them"
    for pair; do need_secret "${pair#*=}"; done
    IFS= read -r -d '' program <<'PY' || true
import json, socket, sys
fields = sys.stdin.buffer.read().split(b"\0")[:-1]
pairs = [[fields[i].decode(), fields[i + 1].decode()] for i in range(0, len(fields), 2)]
mutate = lambda mutation: {"op": "mutate", "table": "Open_vSwitch", "where": [], "mutations": [mutation]}
request = {"id": 0, "method": "transact", "params": ["Open_vSwitch",
    mutate(["external_ids", "delete", ["set", [k for k, _ in pairs]]]),
    mutate(["external_ids", "insert", ["map", pairs]])]}
sock = socket.socket(socket.AF_UNIX)
sock.settimeout(10)
sock.connect(sys.argv[1])
sock.sendall(json.dumps(request).encode())
buf, decoder = "", json.JSONDecoder()
while True:
    data = sock.recv(65536)
    if not data:
        sys.exit("ovsdb-server closed the connection")
    buf = (buf + data.decode()).lstrip()
    try:
        reply, _ = decoder.raw_decode(buf)
    except ValueError:
        continue
    break
errors = [r["error"] for r in (reply.get("result") or []) if r and "error" in r]
if reply.get("error") or errors or any(r.get("count") != 1 for r in reply["result"][:2]):
    sys.exit("ovsdb-server refused the external_ids transaction: %s" % (reply.get("error") or errors or "no Open_vSwitch row"))
PY
    for pair; do printf '%s\0%s\0' "${pair%%=*}" "${secret[${pair#*=}]}"; done |
        python3 -c "$program" "${OVS_RUNDIR:-/var/run/openvswitch}/db.sock"
}
