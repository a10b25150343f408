// HostPackages: the distribution packages of one host (Open vSwitch, OVN central or host).
import type { remote } from "@pulumi/command";
import type { PackagesConfig } from "../config/types";
import type { HostModel } from "../model/types";
import { hostCommand, type HostConnection } from "./command";
import { Part, type PartOptions } from "./part";
import { packagesScript } from "./scripts/packagesScript";

export interface HostPackagesArgs {
    host: HostModel;
    packages: PackagesConfig;
    connection: HostConnection;
}

export class HostPackages {
    readonly install: remote.Command;

    constructor(name: string, args: HostPackagesArgs, opts: PartOptions) {
        const part = new Part("ovn-kubernetes:hosts:HostPackages", name, opts);
        // Generated (and so validated) before any child exists: bad input fails the preview.
        const script = packagesScript(args.host, args.packages);
        const { openvswitchVersion, ovnVersion, repository, skip } = args.packages;
        this.install = hostCommand(part, `${name}-install`, script, {
            connection: args.connection,
            // A new pin or repository re-runs the install, even where the script text stays equal.
            triggers: [openvswitchVersion ?? "", ovnVersion ?? "", repository ? JSON.stringify(repository) : "", skip ? "skip" : ""],
        });
    }
}
