#!/usr/bin/env bash
# One command for the demonstration on a fresh Debian or Ubuntu machine, as root: installs the OS
# packages and npm dependencies that are missing, then runs `npm run demo` (a local cluster, the
# stack applied, pods pinging across nodes and through the gateway).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -ne 0 ]; then
    echo "run as root: the local cluster creates network namespaces and mounts" >&2
    exit 1
fi
source scripts/node.sh
echo "== OS packages"
bash scripts/install-os-packages.sh
echo "== npm dependencies"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
else
    echo "npm dependencies: present"
    # The program and its providers run the built package: rebuild it from the current sources.
    npm run -s build
fi
npm run -s demo -- "$@"
