// The program: read the stack config, validate it (nothing is registered when it is invalid),
// create the cluster, export what operators look up. It uses the package as any other program
// would (see examples/).
import * as pulumi from "@pulumi/pulumi";
import { ConfigError, logConfigWarnings, OvnKubernetesCluster, readStackConfig, validateConfig } from "@ovn-kubernetes-as-code/cluster";

const { raw, secrets } = readStackConfig();
function validated() {
    try {
        return validateConfig(raw);
    } catch (e) {
        // A RunError is reported as the message alone: one line per problem, no stack trace.
        if (e instanceof ConfigError) throw new pulumi.RunError(e.message);
        throw e;
    }
}

const config = validated();
logConfigWarnings(config);
const cluster = new OvnKubernetesCluster("ovn", { config, secrets, owner: `${pulumi.getProject()}/${pulumi.getStack()}` });

export const nodeSubnets = cluster.nodeSubnets;
export const routerIps = cluster.routerIps;
export const managementIps = cluster.managementIps;
export const nbAddress = cluster.nbAddress;
export const sbAddress = cluster.sbAddress;
export const systemIds = cluster.systemIds;
