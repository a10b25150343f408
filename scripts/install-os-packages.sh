#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages that the local cluster and the tests use: OVS and OVN
# (userspace datapath is enough), sshd, iproute2, ethtool, ping, shellcheck; debootstrap and the
# Debian archive keys it checks the mirror with, which build the bases of `localcluster up --os
# debian13|debian-sid` (Debian 12's debootstrap and keyring do for trixie and sid: sid's Release
# is signed with the bookworm and trixie keys); etcd, openssl and xz for the local
# cluster's Kubernetes control plane; Debian's CNI plugins for the kubelet stand-in's tests;
# rsvg-convert (librsvg2-bin), which the topology pictures' tests rasterise with; python3, whose parser
# reads the Python example program in the component provider's tests; tcpdump, the capture in the
# outside namespace that reads the DSCP of egress traffic in the features test; openvswitch-ipsec
# (with strongswan) and strongSwan's gcm plugin (libstrongswan-standard-plugins), which the IPsec
# host test runs. Needs root.
# Package scripts try to start services; without systemd they are refused harmlessly.
set -euo pipefail
packages=(openvswitch-switch openvswitch-common openvswitch-vtep ovn-central ovn-host ovn-common ovn-controller-vtep openssh-server openssh-client
    iproute2 ethtool iputils-ping nftables shellcheck uuid-runtime procps util-linux debootstrap debian-archive-keyring librsvg2-bin
    containernetworking-plugins etcd-server openssl xz-utils python3-minimal tcpdump openvswitch-ipsec libstrongswan-standard-plugins)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
    echo "OS packages: all present"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "OS packages missing (${missing[*]}); run as root" >&2
    exit 1
fi
echo "OS packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q -o DPkg::Lock::Timeout=600
apt-get install -o DPkg::Lock::Timeout=600 -y -q --no-install-recommends "${missing[@]}"
