"""A physical server on one VLAN of a trunk, without the kernel's 8021q module: 802.1Q frames
written and read on a packet socket. Resolves the next hop by ARP, sends ICMP echo requests to
the target, answers ARP for its own address meanwhile. Exit 0 when a reply came back.

usage: vlanPing.py IFACE VLAN SRC_IP NEXTHOP_IP TARGET_IP [SECONDS]
"""
import socket
import struct
import sys
import time

SOL_PACKET, PACKET_AUXDATA, TP_STATUS_VLAN_VALID = 263, 8, 1 << 4
ETH_ARP, ETH_IP, ETH_VLAN = 0x0806, 0x0800, 0x8100

iface, vlan, src_ip, nexthop, target = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
deadline = time.time() + (float(sys.argv[6]) if len(sys.argv) > 6 else 5)
with open(f"/sys/class/net/{iface}/address") as f:
    my_mac = bytes.fromhex(f.read().strip().replace(":", ""))
ip = socket.inet_aton
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
s.bind((iface, 0))
s.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)


def send(dst_mac, ethertype, payload):
    s.send(dst_mac + my_mac + struct.pack("!HHH", ETH_VLAN, vlan, ethertype) + payload)


def frames():
    """(ethertype, payload) of frames on our VLAN, tag in the frame or in the packet's auxdata."""
    while time.time() < deadline:
        s.settimeout(max(0.01, min(0.2, deadline - time.time())))
        try:
            data, anc, _, _ = s.recvmsg(65535, socket.CMSG_SPACE(20))
        except socket.timeout:
            yield None, None
            continue
        tag = None
        for level, kind, value in anc:
            if level == SOL_PACKET and kind == PACKET_AUXDATA:
                status, _, _, _, _, tci = struct.unpack("IIIHHH", value[:18])
                if status & TP_STATUS_VLAN_VALID:
                    tag = tci & 0xFFF
        ethertype = struct.unpack("!H", data[12:14])[0]
        payload = data[14:]
        if tag is None and ethertype == ETH_VLAN:
            tag, ethertype = struct.unpack("!H", data[14:16])[0] & 0xFFF, struct.unpack("!H", data[16:18])[0]
            payload = data[18:]
        if tag == vlan:
            yield ethertype, payload


def arp(op, tha, tpa):
    return struct.pack("!HHBBH6s4s6s4s", 1, ETH_IP, 6, 4, op, my_mac, ip(src_ip), tha, ip(tpa))


def answer_arp(payload):
    """Answers a request for our address; returns (sender IP, sender MAC) of replies."""
    op, sha, spa, tpa = struct.unpack("!6xH6s4s6x4s", payload[:28])
    if op == 1 and tpa == ip(src_ip):
        send(sha, ETH_ARP, arp(2, sha, socket.inet_ntoa(spa)))
    return (spa, sha) if op == 2 else None


def checksum(b):
    if len(b) % 2:
        b += b"\0"
    total = sum(struct.unpack(f"!{len(b) // 2}H", b))
    total = (total >> 16) + (total & 0xFFFF)
    return ~(total + (total >> 16)) & 0xFFFF


def echo(seq, dst_mac):
    icmp = struct.pack("!BBHHH", 8, 0, 0, 0x5654, seq) + b"vtep" * 8
    icmp = icmp[:2] + struct.pack("!H", checksum(icmp)) + icmp[4:]
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(icmp), seq, 0, 64, 1, 0, ip(src_ip), ip(target))
    hdr = hdr[:10] + struct.pack("!H", checksum(hdr)) + hdr[12:]
    send(dst_mac, ETH_IP, hdr + icmp)


next_mac, last, seq = None, 0.0, 0
for ethertype, payload in frames():
    if time.time() - last > 0.3:
        last, seq = time.time(), seq + 1
        if next_mac is None:
            send(b"\xff" * 6, ETH_ARP, arp(1, b"\0" * 6, nexthop))
        else:
            echo(seq, next_mac)
    if ethertype == ETH_ARP:
        reply = answer_arp(payload)
        if reply and reply[0] == ip(nexthop):
            next_mac = reply[1]
    elif ethertype == ETH_IP and payload[9] == 1 and payload[12:16] == ip(target):
        ihl = (payload[0] & 0xF) * 4
        if payload[ihl] == 0 and struct.unpack("!H", payload[ihl + 4 : ihl + 6])[0] == 0x5654:
            print(f"reply from {target} on VLAN {vlan}")
            sys.exit(0)
print(f"no reply from {target} on VLAN {vlan} ({'no ARP reply from ' + nexthop if next_mac is None else 'ARP resolved'})")
sys.exit(1)
