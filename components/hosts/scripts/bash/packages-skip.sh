# packages.skip: the host was prepared by other means; fail early and clearly if it was not.
for tool in ovs-vsctl ovsdb-server ovs-vswitchd; do
    command -v "$tool" >/dev/null 2>&1 || die "packages.skip is set but $tool is not installed"
done
log "package installation skipped (packages.skip)"
