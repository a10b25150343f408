# Inputs: os_family (debian|rhel), wanted ("name[=version] …"), repo_name, repo_file (where its
# source or .repo file goes), repo_url, apt_suite, apt_components (empty when there is no extra
# repository).
# Dependencies come along, recommended (weak) packages do not: on Debian unstable these are a
# dozen Python libraries (python3-rich, -pygments, …) that OVS's optional tools use and no host
# role needs; a role that needs python3-openvswitch (openvswitch-ipsec, openvswitch-vtep) depends on it.
read -r -a specs <<<"$wanted"

# installed_version PACKAGE: the installed version, empty when not installed.
installed_version() {
    if [[ $os_family == debian ]]; then
        # Not installed: dpkg-query exits 1, which pipefail would turn into the script's failure.
        { dpkg-query -W -f='${db:Status-Status} ${Version}' "$1" 2>/dev/null || true; } | awk '$1 == "installed" { print $2 }'
    else
        { rpm -q --qf '%{EPOCH}:%{VERSION}-%{RELEASE}\n' "$1" 2>/dev/null || true; } | sed -e 's/^(none)://' -e '/not installed/d' | head -n 1
    fi
}

# A pin matches the full installed version or, for rpm, version-release or version without the
# epoch: users write "3.1.0" as often as "3.1.0-2.el9".
version_matches() {
    local installed=$1 want=$2
    [[ $installed == "$want" ]] && return 0
    [[ $os_family == rhel ]] && [[ ${installed#*:} == "$want" || ${installed#*:} == "$want"-* ]]
}

missing=()
for spec in "${specs[@]}"; do
    name=${spec%%=*}
    want=''
    [[ $spec == *=* ]] && want=${spec#*=}
    have=$(installed_version "$name")
    if [[ -n $have ]] && { [[ -z $want ]] || version_matches "$have" "$want"; }; then continue; fi
    missing+=("$spec")
done
if ((${#missing[@]} == 0)); then
    log "packages already installed: $wanted"
    exit 0
fi

if [[ $os_family == debian ]]; then
    export DEBIAN_FRONTEND=noninteractive
    if [[ -n $repo_name ]]; then
        # The repository's signing key must already be trusted by apt: keys are not fetched here.
        printf 'deb %s %s %s\n' "$repo_url" "$apt_suite" "$apt_components" >"$repo_file"
    fi
    apt-get update -q >&2
    apt-get install -y -q --no-install-recommends --allow-downgrades -o Dpkg::Options::=--force-confold "${missing[@]}" >&2
else
    if [[ -n $repo_name ]]; then
        printf '[%s]\nname=%s\nbaseurl=%s\nenabled=1\ngpgcheck=1\n' "$repo_name" "$repo_name" "$repo_url" >"$repo_file"
    fi
    dnf_specs=()
    for spec in "${missing[@]}"; do dnf_specs+=("${spec/=/-}"); done
    dnf install -y -q --setopt=install_weak_deps=False "${dnf_specs[@]}" >&2
fi
log "installed: ${missing[*]}"
