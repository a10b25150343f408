// ovnkube-identity's relations to the rest of the stack (docs/facts/ovnkube-1.3.md, "identity"):
// it runs on the masters, on the host network, listening where `webhookAddress` says (localhost,
// or the master's Node InternalIP, the tunnel IP here: components/kube/identity.ts); the API server
// calls it there; and ovnkube-node asks for its certificate with the kubelet's own credential,
// because the approver signs only CSRs of `system:node:<name>` users.
import { isK8sNode, tunnelIpOf } from "../../model/nodes";
import { urlIpv4 } from "./addresses";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

const ADDRESS = "ovnkube.identity.webhookAddress";
const BOOTSTRAP = "ovnkube.identity.bootstrapKubeconfig";

/** kubeadm's kubeconfigs that are no node's credential, with what they hold (kubeadm's /etc/kubernetes). */
const NOT_NODE_CREDENTIALS: Readonly<Record<string, string>> = {
    "admin.conf": "cluster-admin's credential",
    "super-admin.conf": "the break-glass system:masters credential",
    "controller-manager.conf": "the controller manager's credential",
    "scheduler.conf": "the scheduler's credential",
    "bootstrap-kubelet.conf": "a bootstrap token, which the kubelet trades for its own credential",
};

function notNodeCredential(path: string): string | undefined {
    const base = path.slice(path.lastIndexOf("/") + 1);
    if (NOT_NODE_CREDENTIALS[base]) return NOT_NODE_CREDENTIALS[base];
    if (/(^|\/)\.kube\/config$/.test(path)) return "a user's kubeconfig";
    if (/admin|bootstrap/i.test(base)) return `by its name ("${base}") an administrator's or bootstrap credential`;
    return undefined;
}

/** Relations (ovnkube mode, identity enabled): where the webhook listens, who calls it, with which credential ovnkube-node asks. */
export function identityProblems(cfg: StackConfigInput, add: Add): void {
    const identity = cfg.ovnkube?.identity;
    if (identity?.enabled === false) return;
    const bootstrap = identity?.bootstrapKubeconfig;
    const what = bootstrap === undefined ? undefined : notNodeCredential(bootstrap);
    if (what)
        add(
            BOOTSTRAP,
            `${bootstrap} is ${what}, not a node's: ovnkube-identity's approver signs only certificate requests of system:node:<name> users; name the kubelet's kubeconfig (kubeadm: /etc/kubernetes/kubelet.conf)`,
        );

    const address = identity?.webhookAddress ?? "localhost";
    const masters = cfg.nodes.flatMap((n, i) => (n.roles.includes("master") ? [{ n, i }] : []));
    if (address !== "localhost") {
        // The existing relation (semantic.ts) names an address that is no master's; here: the master's SSH address, which is not where it listens.
        const bySsh = masters.find(({ n }) => n.address === address && tunnelIpOf(n) !== undefined && tunnelIpOf(n) !== address);
        if (bySsh)
            add(
                ADDRESS,
                `${address} is nodes[${bySsh.i}].address, but ovnkube-identity listens on that master's node IP, its tunnelIp ${tunnelIpOf(bySsh.n)}: the API server would find nothing there; use ${tunnelIpOf(bySsh.n)}`,
            );
        return;
    }
    // localhost: every API server must run beside an ovnkube-identity, that is on a master.
    const api = urlIpv4(cfg.apiServer.url);
    const host = api === undefined ? -1 : cfg.nodes.findIndex((n) => n.address === api || tunnelIpOf(n) === api);
    if (host >= 0 && !cfg.nodes[host].roles.includes("master"))
        add(
            ADDRESS,
            `localhost, but apiServer.url names nodes[${host}] (${api}), which is no master and runs no ovnkube-identity: its API server would call a webhook that is not there; ${isK8sNode(cfg.nodes[host]) ? "give that node the role master, " : ""}or set webhookAddress to a master's node IP (${masters
                .map(({ n }) => tunnelIpOf(n))
                .filter(Boolean)
                .join(", ")})`,
        );
}
