# Inputs: nic, bridge, boot_entry. Changes nothing: fails, naming the file and the fix, while the
# distribution's own network configuration would still configure the NIC that moves onto bridge.
refuse_distro_network_config "$nic" "$bridge"
