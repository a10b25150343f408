# Inputs: bridge, nic, patch_port, ct_zone, wait_seconds, and the boot entry's (boot-entry.sh).
# The flows (gateway-flows.sh) once ovn-controller has added the localnet patch port; recorded as
# a piece the boot entry installs again after a reboot. A re-run changes nothing.
wait_for "$wait_seconds" "patch port $patch_port on $bridge (ovn-controller adds it once the gateway router's localnet port is bound here)" gateway_patch_port_on_bridge
gateway_flows_apply
gateway_flows_piece_write
boot_entry_install
