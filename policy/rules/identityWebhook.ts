// The identity webhook stays on (ovnkube.identity.enabled): ovnkube-identity gives every node its
// own client certificate and its admission webhook holds each node to its own Node and pods, so
// one compromised node cannot rewrite another's annotations (subnets, node-id). Judged on the
// whole stack: a stack that deploys ovnkube must also deploy the node webhook. Pulumi mode runs
// no ovnkube, so the rule does not apply there.
import type { StackValidationPolicy } from "@pulumi/policy";
import { NODE_WEBHOOK } from "@ovn-kubernetes-as-code/cluster/kube";
import { OVNKUBE_TYPE } from "@ovn-kubernetes-as-code/cluster/kube";

const WEBHOOK_TYPE = "kubernetes:admissionregistration.k8s.io/v1:ValidatingWebhookConfiguration";

export const identityWebhookOn: StackValidationPolicy = {
    name: "identity-webhook-on",
    description: "A stack that deploys ovnkube keeps ovnkube-identity and its node admission webhook on (ovnkube.identity.enabled).",
    enforcementLevel: "mandatory",
    validateStack(args, reportViolation) {
        const ovnkube = args.resources.find((r) => r.type === OVNKUBE_TYPE);
        if (!ovnkube) return;
        const webhook = args.resources.some((r) => r.type === WEBHOOK_TYPE && r.props.metadata?.name === NODE_WEBHOOK);
        if (!webhook)
            reportViolation(
                `ovnkube is deployed without the ValidatingWebhookConfiguration ${NODE_WEBHOOK}: set ovnkube.identity.enabled: true (the default)`,
                ovnkube.urn,
            );
    },
};
