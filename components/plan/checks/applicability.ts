// Settings that are well-formed but cannot work where they apply: a tunnel type current Open
// vSwitch lacks, node subnets with almost no pod addresses, per-OS settings where no host has that
// OS, and an SSH user the host scripts cannot do their work as.
import { size } from "../../values";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

/**
 * Addresses of a node subnet pods cannot have: network, the cluster router's port (.1), the
 * management port (.2) and broadcast.
 */
const RESERVED_PER_NODE = 4;
/** Fewer pod addresses per node than this leaves a node unable to run its own system pods and a workload. */
export const MIN_POD_ADDRESSES = 8;
export const podAddresses = (prefix: number, bits = 32): number => size(prefix, bits) - RESERVED_PER_NODE;

/** Relation: every node subnet (the length allocated, or a pinned one) leaves a node room for pods. */
export function podRoomProblem(prefix: number, bits = 32): string | undefined {
    const pods = podAddresses(prefix, bits);
    if (pods >= MIN_POD_ADDRESSES) return undefined;
    return `/${prefix} leaves ${Math.max(pods, 0)} pod addresses per node (network, router, management port and broadcast take 4); use /${bits - Math.ceil(Math.log2(MIN_POD_ADDRESSES + RESERVED_PER_NODE))} or shorter`;
}

/** Tunnel types current OVS (3.0 and later) has, and why the others are gone. */
const GONE_ENCAP: Record<string, string> = {
    stt: "STT lived only in Open vSwitch's out-of-tree kernel module, which OVS 3.0 removed, and the userspace datapath never had it: no current host can build the tunnels; use geneve",
};

/** The hosts' scripts install packages, write /etc and run ovs-vsctl, with no sudo: they need root. */
const SCRIPT_USER = "root";

/** Relations: each setting applies to something that can carry it out. */
export function applicabilityProblems(cfg: StackConfigInput, add: Add): void {
    const encap = cfg.encapType ?? "geneve";
    if (encap in GONE_ENCAP) add("encapType", `"${encap}": ${GONE_ENCAP[encap]}`);
    if (cfg.hostSubnetLength !== undefined) {
        const room = podRoomProblem(cfg.hostSubnetLength);
        if (room) add("hostSubnetLength", room);
    }

    // Per-OS settings: apt lines are for Debian hosts, which need them when a repository is named.
    const repo = cfg.packages?.repository;
    if (repo && cfg.packages?.skip !== true) {
        const debian = cfg.nodes.findIndex((n) => (n.os ?? "debian") === "debian");
        if (debian >= 0 && !repo.apt)
            add("packages.repository.apt", `required: nodes[${debian}] is a debian host, whose apt source needs a suite and components`);
        if (debian < 0 && repo.apt)
            add("packages.repository.apt", "applies to debian hosts, and every node is rhel (dnf takes the url as its baseurl); remove it");
    }

    if ((cfg.ssh?.user ?? SCRIPT_USER) !== SCRIPT_USER && cfg.nodes.some((n) => n.user === undefined))
        add(
            "ssh.user",
            `"${cfg.ssh!.user}": the host scripts install packages, write /etc and drive Open vSwitch without sudo, so they need ${SCRIPT_USER}; log in as ${SCRIPT_USER}`,
        );
    cfg.nodes.forEach((n, i) => {
        if (n.user !== undefined && n.user !== SCRIPT_USER)
            add(
                `nodes[${i}].user`,
                `"${n.user}": the host scripts install packages, write /etc and drive Open vSwitch without sudo, so they need ${SCRIPT_USER}; log in as ${SCRIPT_USER}`,
            );
    });
}
