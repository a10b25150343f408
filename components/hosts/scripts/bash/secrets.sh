# Secrets arrive on stdin as "secret lines" (see ../secrets.ts): `<name> <base64>` per line.
# read_secrets fills the associative array `secret`; nothing here prints a secret.
declare -A secret=()
read_secrets() {
    local key value
    while IFS=' ' read -r key value || [[ -n ${key:-} ]]; do
        [[ -z $key ]] && continue
        case $key in
            k8s-api-token | k8s-ca-certificate | ssl-private-key | ssl-certificate | ssl-ca-certificate) ;;
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
# ovsdb_string NAME: the secret as an OVSDB string atom (double quotes, C escapes) for ovs-vsctl.
ovsdb_string() {
    need_secret "$1"
    local v=${secret[$1]}
    v=${v//$'\r'/}
    if [[ $v == *[$'\001'-$'\011'$'\013'-$'\037'$'\177']* ]]; then die "secret $1 holds control characters"; fi
    v=${v//\\/\\\\}
    v=${v//\"/\\\"}
    v=${v//$'\n'/\\n}
    printf '"%s"' "$v"
}
