# Installs a script bundle from stdin ("<file> <base64>" lines) into its content-addressed
# directory, unless that directory already holds it whole. Written beside and moved into place,
# so a command never sees half a bundle; the SHA256SUMS file's digest is the bundle's.
# Inputs: bundle_root, bundle_id, bundle_digest.
bundle_dir=$bundle_root/$bundle_id
whole() { [[ -f $1/SHA256SUMS && $(sha256sum <"$1/SHA256SUMS") == "$bundle_digest  -" ]] && (cd "$1" && sha256sum --quiet --strict -c SHA256SUMS) >/dev/null 2>&1; }
if whole "$bundle_dir"; then
    cat >/dev/null
    echo "bundle $bundle_id present"
    exit 0
fi
mkdir -p -m 0755 "$bundle_root"
incoming=$(mktemp -d "$bundle_root/.incoming.XXXXXX")
trap 'rm -rf "$incoming"' EXIT
while read -r file data; do
    [[ $file =~ ^[A-Za-z0-9][A-Za-z0-9.-]*$ ]] || { echo "error: bad file name in the bundle: $file" >&2; exit 1; }
    printf '%s' "$data" | base64 -d >"$incoming/$file"
done
whole "$incoming" || { echo "error: the bundle received does not match its digest $bundle_digest" >&2; exit 1; }
chmod 0755 "$incoming"
chmod 0644 "$incoming"/*
rm -rf "$bundle_dir"
mv -T "$incoming" "$bundle_dir"
trap - EXIT
echo "bundle $bundle_id installed"
