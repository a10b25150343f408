// Checks of the Kubernetes part of the model, run before any object is built: a bad value fails the
// preview with the field and the reason instead of producing a DaemonSet that crash-loops or a plan
// ovnkube would silently replace.
import { PATTERNS, type Pattern } from "../values";
import { MAX_OVNKUBE_NODE_ID, MIN_OVNKUBE_NODE_ID } from "../model/addressPlan";
import type { KubeModel } from "../model/types";
import { CONFIG_ENV } from "./configMap";

/**
 * Keys that would carry credentials. A ConfigMap is readable by anyone who may read the namespace,
 * so the API token and CA never go there: the pods use their service account's token and CA.
 */
const SECRET_LIKE_KEY = /token|cert|secret|password|passwd|priv|key$/i;

type Fail = (path: string, reason: string) => never;

const isNodeName = (name: string) => PATTERNS.dnsSubdomain.re.test(name);

export function validateKubeModel(model: KubeModel): void {
    const fail: Fail = (path, reason) => {
        throw new Error(`kube.${path}: ${reason}`);
    };
    const check = (path: string, value: string, pattern: Pattern) => {
        if (!pattern.re.test(value)) fail(path, `"${value}" is not ${pattern.what}`);
    };
    check("namespace", model.namespace, PATTERNS.nodeName);
    check("image", model.image, PATTERNS.image);
    if (model.masterNodes.length === 0) fail("masterNodes", "is empty: the cluster manager would run nowhere");
    model.masterNodes.forEach((node, i) => {
        if (!isNodeName(node)) fail(`masterNodes[${i}]`, `"${node}" is not a Kubernetes node name`);
    });
    for (const [key, value] of Object.entries(model.config)) {
        if (!PATTERNS.configMapKey.re.test(key)) fail(`config.${key}`, "is not a valid ConfigMap key");
        if (SECRET_LIKE_KEY.test(key)) fail(`config.${key}`, "looks like a credential; those never go into ovn-config");
        if (typeof value !== "string") fail(`config.${key}`, "must be a string");
    }
    for (const { key, required, centralizedOnly } of CONFIG_ENV) {
        const needed = required && (!centralizedOnly || model.architecture === "centralized");
        if (needed && !model.config[key]) fail(`config.${key}`, "is required by ovnkube and missing");
        if (centralizedOnly && model.architecture === "interconnect" && key in model.config)
            fail(`config.${key}`, "is set, but interconnect zones use their own databases' unix sockets");
    }
    const https = model.config.k8s_apiserver.startsWith("https://");
    if (https !== model.secureApi) {
        fail("config.k8s_apiserver", `"${model.config.k8s_apiserver}" disagrees with secureApi=${model.secureApi} (https means secure)`);
    }
    const ranges: Array<[string, readonly string[]]> = [
        ["joinSubnets", model.joinSubnets],
        ["masqueradeSubnets", model.masqueradeSubnets],
        ...(model.architecture === "interconnect" ? [["transitSubnets", model.transitSubnets] as [string, readonly string[]]] : []),
    ];
    for (const [key, list] of ranges) {
        if (list.length !== model.ipFamilies.length)
            fail(key, `has ${list.length} entries for ${model.ipFamilies.length} address families`);
        list.forEach((c, k) => check(`${key}[${k}]`, c, PATTERNS.ipCidr));
    }
    if (model.identity) {
        check("identity.webhookAddress", model.identity.webhookAddress, PATTERNS.host);
        check("identity.bootstrapKubeconfig", model.identity.bootstrapKubeconfig, PATTERNS.hostPath);
    }
    model.crdUrls.forEach((url, i) => {
        if (!/^(?:https?:\/\/|file:\/\/\/)[A-Za-z0-9._~:/%+-]+\.ya?ml(?:\.j2)?$/.test(url))
            fail(`crdUrls[${i}]`, `"${url}" is not an http(s) or file URL of a YAML file`);
    });
    validatePlan(model, fail, check);
}

/** The planned nodes and the node groups: each node planned once, in exactly one group. */
function validatePlan(model: KubeModel, fail: Fail, check: (path: string, value: string, pattern: Pattern) => void): void {
    const planned = new Map<string, number>();
    const ids = new Map<number, string>();
    model.nodes.forEach((node, i) => {
        const p = `nodes[${i}]`;
        if (!isNodeName(node.name)) fail(`${p}.name`, `"${node.name}" is not a Kubernetes node name`);
        if (planned.has(node.name)) fail(`${p}.name`, `"${node.name}" is planned twice (also nodes[${planned.get(node.name)}])`);
        planned.set(node.name, i);
        node.subnets.forEach((s, k) => check(`${p}.subnets[${k}]`, s, PATTERNS.ipCidr));
        if (!Number.isInteger(node.nodeId) || node.nodeId < MIN_OVNKUBE_NODE_ID || node.nodeId > MAX_OVNKUBE_NODE_ID) {
            fail(`${p}.nodeId`, `${node.nodeId} is outside ovnkube's node-id range ${MIN_OVNKUBE_NODE_ID}…${MAX_OVNKUBE_NODE_ID}`);
        }
        const other = ids.get(node.nodeId);
        if (other !== undefined)
            fail(`${p}.nodeId`, `${node.nodeId} is also the node-id of ${other}: ovnkube would re-allocate one of them`);
        ids.set(node.nodeId, node.name);
    });
    model.masterNodes.forEach((node, i) => {
        if (!planned.has(node)) fail(`masterNodes[${i}]`, `"${node}" has no plan in kube.nodes: ovnkube-node must run on every master too`);
    });

    if (model.nodeGroups.length === 0) fail("nodeGroups", "is empty: ovnkube-node would run nowhere");
    const groupOf = new Map<string, string>();
    const groupNames = new Set<string>();
    model.nodeGroups.forEach((group, i) => {
        const p = `nodeGroups[${i}]`;
        // The DaemonSet name is also its selector label's value: at most 63 characters.
        check(`${p}.name`, group.name, PATTERNS.nodeName);
        if (groupNames.has(group.name)) fail(`${p}.name`, `"${group.name}" names two node groups`);
        groupNames.add(group.name);
        if (group.nodes.length === 0) fail(`${p}.nodes`, "is empty: the DaemonSet would run nowhere");
        group.nodes.forEach((node, j) => {
            if (!planned.has(node)) fail(`${p}.nodes[${j}]`, `"${node}" has no plan in kube.nodes`);
            const other = groupOf.get(node);
            if (other !== undefined) fail(`${p}.nodes[${j}]`, `"${node}" is also in group ${other}: two ovnkube-node pods would run on it`);
            groupOf.set(node, group.name);
        });
        if (group.gatewayInterface !== undefined) check(`${p}.gatewayInterface`, group.gatewayInterface, PATTERNS.ifname);
        if (group.gatewayNexthop !== undefined) check(`${p}.gatewayNexthop`, group.gatewayNexthop, PATTERNS.ipv4);
    });
    for (const node of planned.keys()) {
        if (!groupOf.has(node)) fail("nodeGroups", `no group holds "${node}": no ovnkube-node would run on it`);
    }
}
