// The service environment variables every container gets (KUBERNETES_SERVICE_HOST and friends),
// as the kubelet computes them: the `kubernetes` service of namespace `default` always, and the
// services of the pod's own namespace when spec.enableServiceLinks is true (the default)
// (pkg/kubelet/kubelet_pods.go getServiceEnvVarMap, pkg/kubelet/envvars FromServices).
import type { Service } from "./types";

const MASTER_SERVICE_NAMESPACE = "default";
const MASTER_SERVICES = new Set(["kubernetes"]);

function hasClusterIP(s: Service): boolean {
    const ip = s.spec?.clusterIP;
    return ip !== undefined && ip !== "" && ip !== "None";
}

function envName(serviceOrPort: string): string {
    return serviceOrPort.replace(/-/g, "_").toUpperCase();
}

function hostPort(ip: string, port: number): string {
    return ip.includes(":") ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** Docker-link style variables (`<NAME>_PORT`, `<NAME>_PORT_<port>_<PROTO>…`). */
function linkVariables(s: Service, prefix: string, ip: string): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    (s.spec?.ports ?? []).forEach((p, i) => {
        const proto = p.protocol ?? "TCP";
        const url = `${proto.toLowerCase()}://${hostPort(ip, p.port)}`;
        if (i === 0) out.push([`${prefix}_PORT`, url]);
        const portPrefix = `${prefix}_PORT_${p.port}_${proto.toUpperCase()}`;
        out.push([portPrefix, url], [`${portPrefix}_PROTO`, proto.toLowerCase()], [`${portPrefix}_PORT`, String(p.port)], [`${portPrefix}_ADDR`, ip]);
    });
    return out;
}

function fromService(s: Service): Array<[string, string]> {
    const prefix = envName(s.metadata?.name ?? "");
    const ip = s.spec!.clusterIP!;
    const ports = s.spec?.ports ?? [];
    if (ports.length === 0) return [[`${prefix}_SERVICE_HOST`, ip]];
    const out: Array<[string, string]> = [[`${prefix}_SERVICE_HOST`, ip], [`${prefix}_SERVICE_PORT`, String(ports[0].port)]];
    for (const p of ports) if (p.name) out.push([`${prefix}_SERVICE_PORT_${envName(p.name)}`, String(p.port)]);
    return [...out, ...linkVariables(s, prefix, ip)];
}

/** The service variables for a pod in `namespace`, from every Service in the cluster. */
export function serviceEnv(services: readonly Service[], namespace: string, enableServiceLinks: boolean): Map<string, string> {
    const chosen = new Map<string, Service>();
    for (const s of services) {
        if (!hasClusterIP(s)) continue;
        const name = s.metadata?.name ?? "";
        if (s.metadata?.namespace === MASTER_SERVICE_NAMESPACE && MASTER_SERVICES.has(name)) {
            if (!chosen.has(name)) chosen.set(name, s);
        } else if (s.metadata?.namespace === namespace && enableServiceLinks) {
            chosen.set(name, s);
        }
    }
    return new Map([...chosen.values()].flatMap(fromService));
}
