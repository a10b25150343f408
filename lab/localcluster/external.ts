// The external namespace (the world behind the gateways) with more than its one address: an
// outside address a test adds is one of the underlay's spare addresses (./addressing), so it is
// on the link the gateways' routers reach directly, and goes with the namespace at `down`.
import { spareAddress } from "./addressing";
import { check } from "./run";
import type { LocalCluster } from "./state";

/** Gives the external namespace the underlay's `n`th spare address (idempotent); returns it. */
export async function addExternalAddress(cluster: LocalCluster, n: number): Promise<string> {
    const ip = spareAddress(cluster.subnet, n);
    await check(["ip", "-n", cluster.external.ns, "address", "replace", `${ip}/${cluster.prefixLen}`, "dev", "eth0"]);
    return ip;
}
