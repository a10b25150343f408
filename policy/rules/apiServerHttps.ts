// The Kubernetes API over HTTPS in production: ovnkube (ConfigMap ovn-config `k8s_apiserver`) and
// every chassis (`external_ids:k8s-api-server`, set by its host script) reach the API server at
// apiServer.url; over http their tokens and the cluster's objects cross the network in clear.
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { inProduction, productionSettings, scriptVar } from "./scope";

export const apiServerOverHttps: ResourceValidationPolicy = {
    name: "api-server-over-https",
    description: "In production stacks ovnkube and the chassis reach the Kubernetes API server over https (apiServer.url).",
    enforcementLevel: "mandatory",
    configSchema: productionSettings,
    validateResource(args, reportViolation) {
        if (!inProduction(args)) return;
        const url =
            args.type === "kubernetes:core/v1:ConfigMap" ? args.props.data?.k8s_apiserver : scriptVar(args.props.create, "k8s_api_server");
        if (typeof url === "string" && !url.startsWith("https://"))
            reportViolation(`${args.name}: the API server ${url} is not https: set apiServer.url to its https:// address`);
    },
};
