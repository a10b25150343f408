#!/usr/bin/env bash
# Runs test files N times in a row, as the suite runs them (node's test runner, two files at a
# time), and reports how many runs passed: for proving a once-flaky test is fixed.
#   bash scripts/repeat-tests.sh 20 test/program/mocks.dev.test.ts test/program/mocks.prod.test.ts
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:?usage: repeat-tests.sh N test-file...}
shift
[[ $runs =~ ^[0-9]+$ ]] || { echo "N must be a number" >&2; exit 2; }
passed=0
for ((i = 1; i <= runs; i++)); do
    if node --import tsx --test --test-concurrency=2 "$@" >"/tmp/repeat-tests.$$.log" 2>&1; then
        passed=$((passed + 1))
    else
        echo "run $i failed:" >&2
        grep -E '^not ok|error:' "/tmp/repeat-tests.$$.log" | head -5 >&2
    fi
done
rm -f "/tmp/repeat-tests.$$.log"
echo "$passed of $runs runs passed: $*"
[[ $passed -eq $runs ]]
