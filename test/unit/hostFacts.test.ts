// The judgement of a host's facts (components/hosts/hostFacts.ts) over what real distributions'
// /etc/os-release files say; the read itself runs against a real host in test/hosts/hostFacts.test.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { distributionFamily, hostFactRefusals, parseHostFacts } from "../../components/hosts/hostFacts";

/** ID and ID_LIKE as each distribution's os-release file has them. */
const RELEASES: Array<[string, string, string, "debian" | "rhel" | undefined]> = [
    ["Debian 12", "debian", "", "debian"],
    ["Ubuntu 24.04", "ubuntu", "debian", "debian"],
    ["Fedora 41", "fedora", "", "rhel"],
    ["RHEL 9", "rhel", "fedora", "rhel"],
    ["CentOS Stream 9", "centos", "rhel fedora", "rhel"],
    ["Rocky Linux 9", "rocky", "rhel centos fedora", "rhel"],
    ["AlmaLinux 9", "almalinux", "rhel centos fedora", "rhel"],
    ["Amazon Linux 2023", "amzn", "fedora", "rhel"],
    ["openSUSE Leap 15.6", "opensuse-leap", "suse opensuse", undefined],
    ["Alpine 3.20", "alpine", "", undefined],
];

test("each distribution's os-release names its package family", () => {
    for (const [name, id, like, family] of RELEASES) {
        const facts = parseHostFacts(`os_id ${id}\nos_like ${like}\nos_name ${name}\n`);
        assert.equal(distributionFamily(facts), family, name);
    }
});

test("every reason is given at once, each naming the node and its setting", () => {
    const facts = parseHostFacts(
        [
            "os_id rocky",
            "os_like rhel centos fedora",
            "os_name Rocky Linux 9.4 (Blue Onyx)",
            "repo_file /etc/yum.repos.d/rocky.repo",
            "repo_owner rocky-repos",
            "address eth1 10.33.74.20/24",
            "no_device breth1",
        ].join("\n"),
    );
    const refusals = hostFactRefusals(
        {
            node: "worker-3",
            packages: { os: "debian", repository: "rocky" },
            gateway: { interface: "eth1", bridge: "breth1", physicalIp: "10.33.74.21/24" },
        },
        facts,
    );
    assert.deepEqual(refusals, [
        "worker-3: nodes[].os is debian, but the host runs Rocky Linux 9.4 (Blue Onyx) (ID=rocky, ID_LIKE=rhel centos fedora), of the rhel family: set os: rhel on node worker-3",
        "worker-3: packages.repository.name rocky would overwrite /etc/yum.repos.d/rocky.repo, which package rocky-repos ships: choose a name of the repository's own",
        "worker-3: gateway.physicalIp 10.33.74.21/24 is not eth1's own address: eth1 holds 10.33.74.20/24: set physicalIp to the address the NIC holds",
    ]);
    // A file no package ships is the operator's own: the step may rewrite it.
    assert.deepEqual(
        hostFactRefusals(
            { node: "w", packages: { os: "rhel", repository: "mine" } },
            parseHostFacts("os_id rocky\nos_like rhel centos fedora\nrepo_file /etc/yum.repos.d/mine.repo\n"),
        ),
        [],
    );
});
