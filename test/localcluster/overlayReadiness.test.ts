// What the overlay checks wait for, as reported: the remote IPs of ovs-vsctl's JSON listing (as a
// chassis printed it), the report naming the chassis that lacks a peer, and the catch-up line.
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatCaughtUp, formatTunnelMesh, remoteIps } from "../../lab/localcluster/overlayReadiness";

test("remote IPs come from each tunnel port's options; ports without one add nothing", () => {
    const listing = JSON.stringify({
        data: [
            [
                [
                    "map",
                    [
                        ["csum", "true"],
                        ["key", "flow"],
                        ["remote_ip", "172.31.95.12"],
                    ],
                ],
            ],
            [
                [
                    "map",
                    [
                        ["key", "flow"],
                        ["remote_ip", "172.31.95.13"],
                    ],
                ],
            ],
            [["map", []]],
        ],
        headings: ["options"],
    });
    assert.deepEqual(remoteIps(listing), ["172.31.95.12", "172.31.95.13"]);
    assert.deepEqual(remoteIps(JSON.stringify({ data: [], headings: ["options"] })), []);
});

test("an incomplete mesh names the chassis, the peers it lacks and its controller's status", () => {
    const text = formatTunnelMesh({
        complete: false,
        chassis: [
            { host: "node1", missing: [] },
            { host: "node2", missing: ["172.31.95.13"], controller: "connected" },
        ],
    });
    assert.match(text, /INCOMPLETE/);
    assert.match(text, /node2 has no tunnel to 172\.31\.95\.13 \(ovn-controller: connected\)/);
    assert.doesNotMatch(text, /node1/);
});

test("the chassis' catch-up with Northbound is reported with its time, or why it did not come", () => {
    assert.equal(formatCaughtUp({ ok: true, seconds: 1.26 }), "chassis caught up with Northbound in 1.3 s");
    assert.equal(
        formatCaughtUp({ ok: false, seconds: 60, detail: "ovn-nbctl: timeout after 60 seconds" }),
        "chassis caught up with Northbound: NOT within 60 s (ovn-nbctl: timeout after 60 seconds)",
    );
});
