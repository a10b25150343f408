// What a host is, judged against what the stack says of it, before any step. Each host's script
// bundle (./scriptBundle) reads it at every preview and up (./hostFactsCheck) and refuses:
// - a node whose `os` is not the family of the distribution it runs (/etc/os-release): its
//   package step would call a package manager the host does not have;
// - an extra repository whose file would overwrite one a package ships (the distribution's own
//   sources, a vendor's), or, on rhel, whose id a distribution repository already uses;
// - a shared gateway whose `physicalIp` is not its NIC's own address (nor, once moved, that of the
//   bridge it is on): ovnkube and the gateway router would answer for an address the host does not hold.
// Pure: the read script's text, its parser and the judgement.
import { OsFamily } from "../config/types";
import { checked } from "../values";
import { bashProgram } from "./scripts/bashText";
import { repositoryFile } from "./scripts/packagesScript";

export interface HostFactsPlan {
    node: string;
    /** The host's package step: its family and the extra repository it writes, if any. */
    packages?: { os: OsFamily; repository?: string };
    /** A shared gateway: the NIC, the bridge it moves onto, and the address it must hold. */
    gateway?: { interface: string; bridge: string; physicalIp: string };
}

/** The read, one program: it changes nothing. */
export function hostFactsScript(plan: HostFactsPlan): string {
    const node = checked("host.name", plan.node, "nodeName");
    const repo = plan.packages?.repository;
    const gw = plan.gateway;
    return bashProgram(
        `what ${node} is: its distribution, repository files, gateway addresses`,
        {
            repo_file: repo === undefined ? "" : repositoryFile(plan.packages!.os, repo),
            repo_id: repo !== undefined && plan.packages!.os === OsFamily.rhel ? repo : "",
            gw_nic: gw ? checked(`gateways[${node}].interface`, gw.interface, "ifname") : "",
            gw_bridge: gw ? checked(`gateways[${node}].bridge`, gw.bridge, "ifname") : "",
        },
        ["host-facts"],
    );
}

export interface HostFacts {
    osId: string;
    osLike: string[];
    osName: string;
    /** The repository file exists, and the package that ships it, if one does. */
    repoFile?: { path: string; owner?: string };
    /** Other .repo files defining the repository's id. */
    repoIdIn: string[];
    /** IPv4 addresses with prefix, by device; a device absent from the host is absent here. */
    addresses: Map<string, string[]>;
    missingDevices: string[];
}

export function parseHostFacts(stdout: string): HostFacts {
    const facts: HostFacts = { osId: "", osLike: [], osName: "", repoIdIn: [], addresses: new Map(), missingDevices: [] };
    for (const line of stdout.split("\n")) {
        const space = line.indexOf(" ");
        const key = space < 0 ? line : line.slice(0, space);
        const value = space < 0 ? "" : line.slice(space + 1).trim();
        if (key === "os_id") facts.osId = value;
        else if (key === "os_like") facts.osLike = value.split(/\s+/).filter((w) => w !== "");
        else if (key === "os_name") facts.osName = value;
        else if (key === "repo_file") facts.repoFile = { path: value };
        else if (key === "repo_owner" && facts.repoFile) facts.repoFile.owner = value;
        else if (key === "repo_id_in") facts.repoIdIn.push(value);
        else if (key === "no_device") facts.missingDevices.push(value);
        else if (key === "address") {
            const [dev, cidr] = value.split(" ");
            facts.addresses.set(dev, [...(facts.addresses.get(dev) ?? []), cidr]);
        }
    }
    return facts;
}

/** The os-release IDs of each family (ID, or a word of ID_LIKE). */
const FAMILY_IDS: Record<OsFamily, readonly string[]> = {
    [OsFamily.debian]: ["debian", "ubuntu"],
    [OsFamily.rhel]: ["rhel", "fedora", "centos"],
};

export function distributionFamily(facts: Pick<HostFacts, "osId" | "osLike">): OsFamily | undefined {
    const ids = [facts.osId, ...facts.osLike];
    return (Object.keys(FAMILY_IDS) as OsFamily[]).find((family) => FAMILY_IDS[family].some((id) => ids.includes(id)));
}

/** Every reason not to touch the host, each naming the node, the setting and what to do; empty when none. */
export function hostFactRefusals(plan: HostFactsPlan, facts: HostFacts): string[] {
    const refusals: string[] = [];
    const node = plan.node;
    const runs = `${facts.osName || facts.osId || "a distribution without /etc/os-release"} (ID=${facts.osId || "?"}${facts.osLike.length ? `, ID_LIKE=${facts.osLike.join(" ")}` : ""})`;
    if (plan.packages) {
        const family = distributionFamily(facts);
        if (family !== plan.packages.os)
            refusals.push(
                `${node}: nodes[].os is ${plan.packages.os}, but the host runs ${runs}, ` +
                    (family
                        ? `of the ${family} family: set os: ${family} on node ${node}`
                        : `neither debian nor rhel: give node ${node} a Debian, Ubuntu, RHEL or Fedora host, or install its packages yourself (packages.skip: true)`),
            );
        const repo = plan.packages.repository;
        if (repo !== undefined && facts.repoFile?.owner)
            refusals.push(
                `${node}: packages.repository.name ${repo} would overwrite ${facts.repoFile.path}, which package ${facts.repoFile.owner} ships: choose a name of the repository's own`,
            );
        if (repo !== undefined && facts.repoIdIn.length > 0)
            refusals.push(
                `${node}: packages.repository.name ${repo} is already a repository id in ${facts.repoIdIn.join(", ")}: choose a name of the repository's own`,
            );
    }
    const gw = plan.gateway;
    if (gw) {
        // The NIC's, its configured bridge's and the bridge it is a port of now: all the script reads.
        const held = [...facts.addresses].flatMap(([dev, list]) => list.map((a) => ({ dev, a })));
        if (!held.some(({ a }) => a === gw.physicalIp)) {
            const what =
                held.length > 0
                    ? `${gw.interface} holds ${held.map(({ dev, a }) => (dev === gw.interface ? a : `${a} (on ${dev})`)).join(", ")}: set physicalIp to the address the NIC holds`
                    : facts.missingDevices.includes(gw.interface) && facts.missingDevices.includes(gw.bridge)
                      ? `the host has no device ${gw.interface}: name the NIC in gateway.interface`
                      : `${gw.interface} holds no IPv4 address: give the NIC its address first`;
            refusals.push(`${node}: gateway.physicalIp ${gw.physicalIp} is not ${gw.interface}'s own address: ${what}`);
        }
    }
    return refusals;
}
