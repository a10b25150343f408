# Removes a script bundle's directory (no command of this stack refers to it any more).
# Inputs: bundle_root, bundle_id.
rm -rf "${bundle_root:?}/${bundle_id:?}"
rmdir "$bundle_root" 2>/dev/null || true
echo "bundle $bundle_id removed"
