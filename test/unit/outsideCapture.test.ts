import assert from "node:assert/strict";
import { test } from "node:test";
import { parseTcpdumpVerbose } from "../e2e/support/outsideCapture";

test("tcpdump's verbose lines give each IPv4 packet's source, destination, port and DSCP", () => {
    const text = [
        "IP (tos 0xb8, ttl 62, id 4660, offset 0, flags [DF], proto UDP (17), length 30)",
        "    172.31.5.12.40123 > 172.31.5.2.15001: UDP, length 2",
        "IP (tos 0x0, ttl 62, id 4661, offset 0, flags [DF], proto UDP (17), length 30)",
        "    172.31.5.13.40124 > 172.31.5.1.15001: [udp sum ok] UDP, length 2",
        // ECN bits are not DSCP.
        "IP (tos 0x2,ECT(0), ttl 64, id 1, offset 0, flags [none], proto UDP (17), length 30)",
        "    172.31.5.12.1 > 172.31.5.2.15001: UDP, length 2",
        "",
    ].join("\n");
    assert.deepEqual(parseTcpdumpVerbose(text), [
        { src: "172.31.5.12", dst: "172.31.5.2", dport: 15001, dscp: 46 },
        { src: "172.31.5.13", dst: "172.31.5.1", dport: 15001, dscp: 0 },
        { src: "172.31.5.12", dst: "172.31.5.2", dport: 15001, dscp: 0 },
    ]);
    assert.deepEqual(parseTcpdumpVerbose("listening on eth0\n"), []);
});
