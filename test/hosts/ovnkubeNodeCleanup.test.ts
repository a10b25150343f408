// ovnkube-node's cleanup (destroy in ovnkube mode) on a real host, for what local gateway mode adds
// outside any OVN-KUBE chain (facts §13.5): the accepts for the management port in the filter
// table, the EgressIP controller's connmark rules, its routing rule for node addresses and
// src_valid_mark, and the masquerade chain in its nftables table. They go, the sysctl back to
// what it was; a rule of the host's own on the same interface stays, and so does its table.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { LocalCluster } from "../../lab/localcluster";
import * as scripts from "../../components/hosts/scripts";
import { inHost, ovsHostLab } from "./support/lab";
import { runOk } from "./support/remote";

const ID = "hostslgw";
const H = "node1";
let lab: LocalCluster;

/** What ovnkube-node in local gateway mode adds to a host, as its code makes it. */
const LOCAL_GATEWAY_STATE = [
    "iptables -t filter -I FORWARD -o ovn-k8s-mp0 -j ACCEPT",
    "iptables -t filter -I FORWARD -i ovn-k8s-mp0 -j ACCEPT",
    'iptables -t filter -I INPUT -i ovn-k8s-mp0 -m comment --comment "from OVN to localhost" -j ACCEPT',
    "iptables -t mangle -A PREROUTING -m mark --mark 0 -j CONNMARK --restore-mark",
    "iptables -t mangle -A PREROUTING -m mark --mark 1008 -j CONNMARK --save-mark",
    "ip rule add priority 5999 fwmark 1008 table main",
    "ip rule add fwmark 0x1745ec lookup 7 prio 30",
    "echo 1 >/proc/sys/net/ipv4/conf/all/src_valid_mark",
    "nft add table inet ovn-kubernetes",
    "nft add chain inet ovn-kubernetes ovn-kube-local-gw-masq '{ type nat hook postrouting priority 101; }'",
    "nft add rule inet ovn-kubernetes ovn-kube-local-gw-masq ip saddr 10.128.0.0/24 masquerade",
].join("\n");
/** The host's own rule on the same interface: not ovnkube's. */
const OWN_RULE = "-A INPUT -i ovn-k8s-mp0 -p tcp -m tcp --dport 22 -j ACCEPT";

const lines = async (script: string) => (await inHost(lab, H, script)).trim().split("\n").filter(Boolean).sort();
const filterRules = () => lines("iptables -t filter -S | grep '^-A' || true");
/** What the cleanup must leave as it found it. */
const hostState = async () => ({
    tables: await lines("nft list tables"),
    rules: await lines("ip rule show"),
    srcValidMark: await lines("cat /proc/sys/net/ipv4/conf/all/src_valid_mark"),
    mangle: await lines("iptables-save -t mangle 2>/dev/null | grep '^-A' || true"),
});

ovsHostLab(ID, (l) => (lab = l));

test("local gateway mode's rules, routing rule and masquerade chain go, src_valid_mark is as before; the tables made for them go too", async () => {
    const bare = await hostState();
    const cleanup = scripts.ovnkubeNodeCleanupScript(H, { masqueradeSubnets: ["169.254.169.0/29"] });
    await runOk(lab, H, cleanup.create);
    await inHost(lab, H, LOCAL_GATEWAY_STATE);
    assert.equal((await filterRules()).length, 3, "ovnkube's three accepts are in place");
    assert.notDeepEqual(await hostState(), bare, "local gateway mode's state is in place");
    await runOk(lab, H, cleanup.delete!);
    assert.deepEqual(await hostState(), bare);
});

test("a rule of the host's own on the management port stays, with its table", async () => {
    const cleanup = scripts.ovnkubeNodeCleanupScript(H, { masqueradeSubnets: ["169.254.169.0/29"] });
    await runOk(lab, H, cleanup.create);
    await inHost(lab, H, `${LOCAL_GATEWAY_STATE}\niptables ${OWN_RULE}`);
    await runOk(lab, H, cleanup.delete!);
    assert.deepEqual(await filterRules(), [OWN_RULE]);
    assert.ok(!(await hostState()).tables.includes("table inet ovn-kubernetes"), "ovnkube's nftables table is gone");
    await inHost(lab, H, `iptables ${OWN_RULE.replace(/^-A/, "-D")}`);
});
