// The providers exactly as the engine gets them: the NB resources are constructed under the SDK's
// mocks and the mock records each registration's inputs, including `__provider`, the serialized
// provider text the engine stores in state and hands to its dynamic-provider host.
// One program per process (Pulumi's runtime state is global): call this once per test file.
import * as pulumi from "@pulumi/pulumi";
import type { ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";

export interface Registered {
    type: string;
    name: string;
    /** Inputs as serialized for the engine (secrets still wrapped), incl. __provider. */
    inputs: Record<string, any>;
}

export interface NbInputsForMocks {
    model: ClusterModel;
    owner: string;
    nb: { ssh: ClusterModel["hosts"][number]["ssh"]; privateKey?: string; privateKeyConfig?: string; socket: string };
    gatewayHost: Record<string, { systemId: string; macAddress: string }>;
}

export async function registerUnderMocks(input: NbInputsForMocks): Promise<Registered[]> {
    const registered: Registered[] = [];
    await pulumi.runtime.setMocks(
        {
            newResource(args: pulumi.runtime.MockResourceArgs) {
                registered.push({ type: args.type, name: args.name, inputs: args.inputs });
                return { id: `${args.name}-id`, state: args.inputs };
            },
            call: (args: pulumi.runtime.MockCallArgs) => args.inputs,
        },
        "ovn-kubernetes",
        "nbtest",
        false,
    );
    // Imported only now: resources must be constructed after the mocks are in place.
    const { ClusterRouter, NodeSwitch, GatewayRouter } = await import("@ovn-kubernetes-as-code/cluster");
    const nb = input.nb;
    const router = new ClusterRouter("cluster-router", { nb, owner: input.owner, router: input.model.clusterRouter });
    const nodes = input.model.nodeNetworks.map(
        (network) => new NodeSwitch(`node-${network.node}`, { nb, owner: input.owner, network }, { dependsOn: [router] }),
    );
    const gateways = input.model.gateways.map(
        (gateway) =>
            new GatewayRouter(
                `gateway-${gateway.node}`,
                { nb, owner: input.owner, gateway, ...input.gatewayHost[gateway.node] },
                { dependsOn: [router] },
            ),
    );
    // Wait until every registration has reached the mock.
    await new Promise<void>((resolve) =>
        pulumi.all([router.urn, ...nodes.map((n) => n.urn), ...gateways.map((g) => g.urn)]).apply(() => resolve()),
    );
    return registered;
}
