// Why a container is not running yet, in the words the kubelet puts in a container's waiting
// state (reason + message), so that a failure shows up on the pod status as it would on a real node.

export class WaitingError extends Error {
    constructor(
        readonly reason: "CreateContainerConfigError" | "ContainerCreating" | "CreateContainerError",
        message: string,
    ) {
        super(message);
    }
}

/** The container's configuration cannot be resolved (a missing ConfigMap key, no command, …). */
export function configError(message: string): WaitingError {
    return new WaitingError("CreateContainerConfigError", message);
}

/** The pod's volumes or network cannot be set up yet; the kubelet retries. */
export function setupError(message: string): WaitingError {
    return new WaitingError("ContainerCreating", message);
}
