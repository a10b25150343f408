// The prod stack (ovnkube mode, ssl) with three centrals, under the SDK's mocks: the clustered
// central's resources, every client given every member, the NB connection's member list kept
// inside the secret input.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readStackFile } from "../../components/config/stackFile";
import { ROOT } from "../../lab/harness/configs";
import { runProgramUnderMocks } from "../../lab/harness/pulumiMocks";

test("prod stack with three centrals under mocks: membership, one databases command per member, every client lists every member", async () => {
    const nodes = readStackFile(`${ROOT}/stacks/Pulumi.prod.yaml`).nodes as Array<{ name: string; roles: string[]; address: string }>;
    for (const n of nodes.filter((x) => x.name !== "ovn-central").slice(0, 2)) n.roles.push("central");
    const { resources } = await runProgramUnderMocks("prod", { nodes });
    const names = resources.map((r) => r.name);
    const members = nodes.filter((n) => n.roles.includes("central")).map((n) => n.name);
    assert.deepEqual(members, ["ovn-central", "master-0", "worker-0"]);
    assert.ok(names.includes("ovn-central-membership"));
    for (const m of members.slice(1)) assert.ok(names.includes(`ovn-central-${m}-databases`), m);
    const membership = resources.find((r) => r.name === "ovn-central-membership")!;
    assert.equal(membership.type, "pulumi-nodejs:dynamic/ovn-central:CentralMembership");
    assert.deepEqual(
        membership.inputs.cluster.members.map((m: { host: string }) => m.host),
        members,
    );
    assert.equal(membership.inputs.cluster.protocol, "ssl");

    const ips = nodes.filter((n) => n.roles.includes("central")).map((n) => n.address);
    const configMap = resources.find((r) => r.type === "kubernetes:core/v1:ConfigMap")!;
    assert.equal(configMap.inputs.data.OvnNorth, ips.map((ip) => `ssl:${ip}:6641`).join(","));
    assert.equal(configMap.inputs.data.OvnSouth, ips.map((ip) => `ssl:${ip}:6642`).join(","));
    // Member scripts: raft over ssl, each its own address, the first creating the clusters.
    const script = (name: string) => String(resources.find((r) => r.name === name)!.inputs.create);
    assert.match(script("ovn-central-databases"), /^bootstrap='yes'$/m);
    assert.match(script("ovn-central-worker-0-databases"), /^bootstrap='no'$/m);
    assert.match(script("ovn-central-worker-0-databases"), new RegExp(`^member_ip='${ips[2].replace(/\./g, "\\.")}'$`, "m"));
    // The expectations' NB connection lists every member, inside the secret.
    const expectation = resources.find((r) => r.type === "pulumi-nodejs:dynamic/ovn-nb:NorthboundExpectation")!;
    const nb = expectation.inputs.nb;
    const value = nb?.value ?? nb;
    assert.deepEqual(
        value.members.map((m: { ssh: { host: string } }) => m.ssh.host),
        ips,
    );
});
