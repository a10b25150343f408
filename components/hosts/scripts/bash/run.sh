# Runs a host command's bodies from this bundle (arguments: the body names, in order) in strict
# mode and a fixed locale (`ip`/`ovs-vsctl` output is parsed, and `read -N` must count bytes),
# with the variables the command assigned, after the bundle's constants and common functions.
# Their stderr (progress, installers' output) goes to a log file on the host, named by the last
# body, so the command's output in the Pulumi state stays small: stdout is the bodies' result
# lines, stderr one line naming the log. A failed run also prints its stderr, to say why.
set -euo pipefail
export LC_ALL=C
script_bundle=${BASH_SOURCE[0]%/*}
run_log_dir=/var/log/ovn-kubernetes-as-code
run_log=$run_log_dir/${*: -1}.log
mkdir -p -m 0700 "$run_log_dir"
run_err=$(mktemp)
set +e
(
    set -e
    for run_body in constants common "$@"; do
        # shellcheck source=/dev/null
        . "$script_bundle/$run_body.sh"
    done
) 2>"$run_err"
run_status=$?
set -e
{
    printf '== %s %s (%s)\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" "exit $run_status"
    cat "$run_err"
} >>"$run_log"
chmod 0600 "$run_log"
((run_status == 0)) || cat "$run_err" >&2
rm -f "$run_err"
printf 'log %s\n' "$run_log" >&2
exit "$run_status"
