// Distribution packages of a host: Open vSwitch everywhere, ovn-central on the central, ovn-host
// (+ ovn-common) on chassis. The list itself comes from the model (HostModel.packages); this
// script installs what is missing or at another version than the pinned one, and nothing else.
// No delete: uninstalling Open vSwitch on destroy could cut a host off its own network.
import { OsFamily, type PackagesConfig } from "../../config/types";
import type { HostModel } from "../../model/types";
import { checked } from "../../values";
import { bashScript, type HostScript, type ScriptVars } from "./shell";

/** Which pinned version applies to a package: OVS ones get openvswitchVersion, OVN ones ovnVersion. */
export function pinnedVersion(pkg: string, packages: PackagesConfig): string | undefined {
    if (pkg.startsWith("openvswitch")) return packages.openvswitchVersion;
    if (pkg.startsWith("ovn")) return packages.ovnVersion;
    return undefined;
}

/** The file the package step writes for the extra repository: an apt source list, or a dnf .repo file. */
export function repositoryFile(os: OsFamily, name: string): string {
    const repo = checked("packages.repository.name", name, "repoName");
    return os === OsFamily.debian ? `/etc/apt/sources.list.d/${repo}.list` : `/etc/yum.repos.d/${repo}.repo`;
}

export function packagesScript(host: HostModel, packages: PackagesConfig): HostScript {
    checked("host.name", host.name, "nodeName");
    if (packages.skip) {
        return { create: bashScript({}, ["packages-skip"]) };
    }
    const os = checked(`hosts[${host.name}].os`, host.os, "osFamily") as OsFamily;
    const names = host.packages.map((pkg, i) => checked(`hosts[${host.name}].packages[${i}]`, pkg, "packageName"));
    if (names.length === 0) throw new Error(`hosts: hosts[${host.name}].packages must not be empty`);
    // A space-separated list of name[=version] words: every character is from a pattern without spaces.
    const wanted = names.map((pkg) => {
        const version = pinnedVersion(pkg, packages);
        const field = pkg.startsWith("openvswitch") ? "packages.openvswitchVersion" : "packages.ovnVersion";
        return version === undefined ? pkg : `${pkg}=${checked(field, version, "packageVersion")}`;
    });
    const vars: ScriptVars = {
        os_family: os,
        wanted: wanted.join(" "),
        repo_name: "",
        repo_file: "",
        repo_url: "",
        apt_suite: "",
        apt_components: "",
    };
    const repo = packages.repository;
    if (repo) {
        vars.repo_name = checked("packages.repository.name", repo.name, "repoName");
        vars.repo_file = repositoryFile(os, repo.name);
        vars.repo_url = checked("packages.repository.url", repo.url, "repoUrl");
        if (os === "debian") {
            if (!repo.apt) throw new Error("hosts: packages.repository.apt (suite, components) is required for Debian hosts");
            vars.apt_suite = checked("packages.repository.apt.suite", repo.apt.suite, "aptSuite");
            vars.apt_components = checked("packages.repository.apt.components", repo.apt.components, "aptComponents");
        }
    }
    return { create: bashScript(vars, ["packages-install"]) };
}
