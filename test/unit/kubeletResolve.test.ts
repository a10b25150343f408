// The kubelet stand-in's pure resolution, against the rules of the real kubelet: `$(VAR)`
// expansion (with `$$` escaping and unknown references left as written), env from ConfigMaps,
// Secrets, field references and service variables, argv, the files of API-data volumes and the
// bind-mount plan of a container.
import assert from "node:assert/strict";
import { test } from "node:test";
import { WaitingError } from "../../packages/lab/localcluster/kubelet/errors";
import { expand, lookupIn } from "../../packages/lab/localcluster/kubelet/expand";
import { containerMounts, etcHostsMount, imageMounts, volumeMounts } from "../../packages/lab/localcluster/kubelet/mounts";
import { launchArgv } from "../../packages/lab/localcluster/kubelet/process";
import { PodObjects, processEnv, referencedObjects, resolveArgv, resolveEnv } from "../../packages/lab/localcluster/kubelet/resolve";
import { serviceEnv } from "../../packages/lab/localcluster/kubelet/serviceEnv";
import type { ConfigMap, Container, Pod, Secret, Service } from "../../packages/lab/localcluster/kubelet/types";
import { etcHostsContent, tokenSources, volumeFiles } from "../../packages/lab/localcluster/kubelet/volumeFiles";

const vars = lookupIn(new Map([["A", "alpha"], ["B", "beta"], ["EMPTY", ""]]));

test("$(VAR) expansion follows Kubernetes: known names replaced, $$ escapes, unknown and malformed references stay", () => {
    const cases: Array<[string, string]> = [
        ["$(A)", "alpha"],
        ["x-$(A)-$(B)-y", "x-alpha-beta-y"],
        ["$(EMPTY)|", "|"],
        ["$$(A)", "$(A)"],
        ["$$$(A)", "$alpha"],
        ["$$$$(A)", "$$(A)"],
        ["$(UNKNOWN)", "$(UNKNOWN)"],
        ["$(A", "$(A"],
        ["$(A$(B)", "$(A$(B)"],
        ["$A", "$A"],
        ["$", "$"],
        ["a$", "a$"],
        ["$()", "$()"],
        ["price: 5$", "price: 5$"],
        ["($(A))", "(alpha)"],
        ["$(A)$(B)$$", "alphabeta$"],
    ];
    for (const [input, want] of cases) assert.equal(expand(input, vars), want, input);
});

const configMap = (name: string, data: Record<string, string>): ConfigMap => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "lab" }, data });
const secret = (name: string, data: Record<string, string>): Secret => ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace: "lab" },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString("base64")])),
});

function pod(containers: Container[], extra: Partial<NonNullable<Pod["spec"]>> = {}): Pod {
    return {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "web-0", namespace: "lab", uid: "11111111-2222-3333-4444-555555555555", labels: { app: "web", tier: "front" }, annotations: { note: 'say "hi"' } },
        spec: { nodeName: "node2", serviceAccountName: "runner", containers, ...extra },
    };
}

const objects: PodObjects = {
    configMaps: new Map([
        ["cfg", configMap("cfg", { greeting: "hello", mtu: "1400", "bad-key!": "x", ".dotted": "ok" })],
        ["missing", undefined],
    ]),
    secrets: new Map([["creds", secret("creds", { password: "s3cr3t", user: "lab" })]]),
};
const addresses = { hostIPs: ["172.31.9.12"], podIPs: ["10.244.1.7"] };
const ctx = { objects, services: new Map([["KUBERNETES_SERVICE_HOST", "172.30.0.1"], ["MTU", "from-service"]]), ...addresses };

test("env: ConfigMap and Secret keys, field references, expansion against earlier variables, then service variables", () => {
    const c: Container = {
        name: "main",
        env: [
            { name: "GREETING", valueFrom: { configMapKeyRef: { name: "cfg", key: "greeting" } } },
            { name: "PASSWORD", valueFrom: { secretKeyRef: { name: "creds", key: "password" } } },
            { name: "NODE", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } },
            { name: "HOST_IP", valueFrom: { fieldRef: { fieldPath: "status.hostIP" } } },
            { name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
            { name: "POD", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
            { name: "NS", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
            { name: "UID", valueFrom: { fieldRef: { fieldPath: "metadata.uid" } } },
            { name: "SA", valueFrom: { fieldRef: { fieldPath: "spec.serviceAccountName" } } },
            { name: "APP", valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
            { name: "LABELS", valueFrom: { fieldRef: { fieldPath: "metadata.labels" } } },
            { name: "NOTE", valueFrom: { fieldRef: { fieldPath: "metadata.annotations['note']" } } },
            { name: "URL", value: "http://$(HOST_IP):$(LATER)/$(GREETING)/$$(NODE)" },
            { name: "LATER", value: "8080" },
            { name: "MTU_EXPANDED", value: "$(MTU)" },
            { name: "SVC", value: "$(KUBERNETES_SERVICE_HOST)" },
        ],
    };
    const env = resolveEnv(pod([c]), c, ctx);
    assert.equal(env.get("GREETING"), "hello");
    assert.equal(env.get("PASSWORD"), "s3cr3t");
    assert.equal(env.get("NODE"), "node2");
    assert.equal(env.get("HOST_IP"), "172.31.9.12");
    assert.equal(env.get("POD_IP"), "10.244.1.7");
    assert.equal(env.get("POD"), "web-0");
    assert.equal(env.get("NS"), "lab");
    assert.equal(env.get("UID"), "11111111-2222-3333-4444-555555555555");
    assert.equal(env.get("SA"), "runner");
    assert.equal(env.get("APP"), "web");
    assert.equal(env.get("LABELS"), 'app="web"\ntier="front"');
    assert.equal(env.get("NOTE"), 'say "hi"');
    // LATER is declared after URL: not yet defined when URL is expanded, so its reference stays.
    assert.equal(env.get("URL"), "http://172.31.9.12:$(LATER)/hello/$(NODE)");
    // Service variables are a source for expansion; a declared variable of the same name wins in the result.
    assert.equal(env.get("MTU_EXPANDED"), "from-service");
    assert.equal(env.get("SVC"), "172.30.0.1");
    assert.equal(env.get("KUBERNETES_SERVICE_HOST"), "172.30.0.1");
    assert.equal(env.get("MTU"), "from-service");
    // Declared order first, service variables last.
    assert.deepEqual([...env.keys()].slice(0, 3), ["GREETING", "PASSWORD", "NODE"]);
    assert.deepEqual([...env.keys()].slice(-2), ["KUBERNETES_SERVICE_HOST", "MTU"]);
});

test("env: envFrom with prefix skips invalid names; later declarations override; optional references to missing objects or keys leave the variable out", () => {
    const c: Container = {
        name: "main",
        envFrom: [{ configMapRef: { name: "cfg" }, prefix: "CFG_" }, { secretRef: { name: "creds" } }, { configMapRef: { name: "missing", optional: true } }],
        env: [
            { name: "CFG_mtu", value: "9000" },
            { name: "OPT_KEY", valueFrom: { configMapKeyRef: { name: "cfg", key: "absent", optional: true } } },
            { name: "OPT_MAP", valueFrom: { configMapKeyRef: { name: "missing", key: "x", optional: true } } },
            { name: "OPT_SECRET", valueFrom: { secretKeyRef: { name: "nosuch", key: "x", optional: true } } },
        ],
    };
    const env = resolveEnv(pod([c]), c, { ...ctx, objects: { ...objects, secrets: new Map([...objects.secrets, ["nosuch", undefined]]) } });
    assert.equal(env.get("CFG_greeting"), "hello");
    assert.equal(env.get("CFG_mtu"), "9000");
    assert.equal(env.get("CFG_.dotted"), "ok");
    assert.equal(env.has("CFG_bad-key!"), false);
    assert.equal(env.get("password"), "s3cr3t");
    assert.equal(env.get("user"), "lab");
    for (const name of ["OPT_KEY", "OPT_MAP", "OPT_SECRET"]) assert.equal(env.has(name), false, name);
});

test("env: a required reference to a missing object or key is a CreateContainerConfigError naming it", () => {
    const cases: Array<[Container["env"], RegExp]> = [
        [[{ name: "X", valueFrom: { configMapKeyRef: { name: "cfg", key: "absent" } } }], /couldn't find key absent in ConfigMap lab\/cfg/],
        [[{ name: "X", valueFrom: { configMapKeyRef: { name: "missing", key: "k" } } }], /configmaps "missing" not found/],
        [[{ name: "X", valueFrom: { secretKeyRef: { name: "creds", key: "token" } } }], /couldn't find key token in Secret lab\/creds/],
        [[{ name: "X", valueFrom: { fieldRef: { fieldPath: "spec.hostname" } } }], /unsupported fieldPath: spec.hostname/],
        [[{ name: "X", valueFrom: { resourceFieldRef: { resource: "limits.cpu" } } }], /resourceFieldRef is not supported/],
    ];
    for (const [env, message] of cases) {
        const c: Container = { name: "main", env };
        assert.throws(
            () => resolveEnv(pod([c]), c, ctx),
            (e: unknown) => e instanceof WaitingError && e.reason === "CreateContainerConfigError" && message.test(e.message),
            String(message),
        );
    }
});

test("service variables: the default namespace's kubernetes service always, the pod's namespace's services with enableServiceLinks", () => {
    const svc = (namespace: string, name: string, clusterIP: string, ports: Array<{ name?: string; port: number; protocol?: "TCP" | "UDP" }>): Service => ({
        apiVersion: "v1",
        kind: "Service",
        metadata: { name, namespace },
        spec: { clusterIP, ports: ports.map((p) => ({ ...p, protocol: p.protocol ?? "TCP" })) },
    });
    const services = [
        svc("default", "kubernetes", "172.30.0.1", [{ name: "https", port: 443 }]),
        svc("lab", "web-api", "172.30.4.9", [{ port: 80 }, { name: "dns-udp", port: 53, protocol: "UDP" }]),
        svc("lab", "headless", "None", [{ port: 80 }]),
        svc("other", "elsewhere", "172.30.7.7", [{ port: 80 }]),
    ];
    const linked = serviceEnv(services, "lab", true);
    assert.equal(linked.get("KUBERNETES_SERVICE_HOST"), "172.30.0.1");
    assert.equal(linked.get("KUBERNETES_SERVICE_PORT"), "443");
    assert.equal(linked.get("KUBERNETES_SERVICE_PORT_HTTPS"), "443");
    assert.equal(linked.get("KUBERNETES_PORT"), "tcp://172.30.0.1:443");
    assert.equal(linked.get("KUBERNETES_PORT_443_TCP_ADDR"), "172.30.0.1");
    assert.equal(linked.get("WEB_API_SERVICE_HOST"), "172.30.4.9");
    assert.equal(linked.get("WEB_API_SERVICE_PORT_DNS_UDP"), "53");
    assert.equal(linked.get("WEB_API_PORT_53_UDP"), "udp://172.30.4.9:53");
    assert.equal(linked.get("WEB_API_PORT_53_UDP_PROTO"), "udp");
    assert.ok(![...linked.keys()].some((k) => k.startsWith("HEADLESS_") || k.startsWith("ELSEWHERE_")));
    const unlinked = serviceEnv(services, "lab", false);
    assert.equal(unlinked.get("KUBERNETES_SERVICE_HOST"), "172.30.0.1");
    assert.equal(unlinked.has("WEB_API_SERVICE_HOST"), false);
});

test("argv: command then args, expanded against the final environment; without a command there is nothing to run", () => {
    const env = new Map([["NODE", "node2"], ["MTU", "1400"]]);
    assert.deepEqual(resolveArgv({ name: "c", command: ["/usr/bin/ovnkube", "-init-node", "$(NODE)"], args: ["-mtu", "$(MTU)", "$$(MTU)", "$(NOPE)"] }, env), [
        "/usr/bin/ovnkube",
        "-init-node",
        "node2",
        "-mtu",
        "1400",
        "$(MTU)",
        "$(NOPE)",
    ]);
    assert.throws(() => resolveArgv({ name: "c", args: ["x"] }, env), (e: unknown) => e instanceof WaitingError && /has no command/.test(e.message));
    // What a runtime adds: the default PATH and HOSTNAME, both overridable by the pod spec.
    assert.deepEqual(processEnv(new Map([["A", "1"]]), "web-0"), { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOSTNAME: "web-0", A: "1" });
    assert.equal(processEnv(new Map([["PATH", "/opt/bin"]]), "h").PATH, "/opt/bin");
});

test("the objects a pod refers to, from env, envFrom and volumes of all its containers", () => {
    const p = pod(
        [{ name: "a", env: [{ name: "X", valueFrom: { configMapKeyRef: { name: "cm1", key: "k" } } }], envFrom: [{ secretRef: { name: "s1" } }] }],
        {
            initContainers: [{ name: "i", env: [{ name: "Y", valueFrom: { secretKeyRef: { name: "s2", key: "k" } } }] }],
            volumes: [
                { name: "v1", configMap: { name: "cm2" } },
                { name: "v2", secret: { secretName: "s3" } },
                { name: "v3", projected: { sources: [{ configMap: { name: "cm3" } }, { secret: { name: "s4" } }, { serviceAccountToken: { path: "token" } }] } },
            ],
        },
    );
    const refs = referencedObjects(p);
    assert.deepEqual([...refs.configMaps].sort(), ["cm1", "cm2", "cm3"]);
    assert.deepEqual([...refs.secrets].sort(), ["s1", "s2", "s3", "s4"]);
});

const ROOT = "/var/lib/kubelet";
const UID = "11111111-2222-3333-4444-555555555555";

test("mount plan: hostPath at its path, API-data volumes read-only from the pod's directory, subPath and subPathExpr below the volume", () => {
    const c: Container = {
        name: "main",
        volumeMounts: [
            { name: "netns", mountPath: "/var/run/netns", mountPropagation: "HostToContainer" },
            { name: "ovs", mountPath: "/etc/openvswitch", readOnly: true },
            { name: "cfg", mountPath: "/etc/lab" },
            { name: "sa", mountPath: "/var/run/secrets/kubernetes.io/serviceaccount/" },
            { name: "scratch", mountPath: "/scratch", subPathExpr: "$(POD)/logs" },
            { name: "scratch", mountPath: "/cache", subPath: "cache" },
        ],
    };
    const p = pod([c], {
        volumes: [
            { name: "netns", hostPath: { path: "/var/run/netns", type: "DirectoryOrCreate" } },
            { name: "ovs", hostPath: { path: "/etc/openvswitch", type: "Directory" } },
            { name: "cfg", configMap: { name: "cfg" } },
            { name: "sa", projected: { sources: [{ serviceAccountToken: { path: "token" } }] } },
            { name: "scratch", emptyDir: {} },
        ],
    });
    const mounts = volumeMounts(p, c, new Map([["POD", "web-0"]]), ROOT);
    const vol = (plugin: string, name: string) => `${ROOT}/pods/${UID}/volumes/kubernetes.io~${plugin}/${name}`;
    assert.deepEqual(mounts, [
        { source: "/var/run/netns", target: "/var/run/netns", readOnly: false, propagation: "HostToContainer", createSource: false },
        { source: "/etc/openvswitch", target: "/etc/openvswitch", readOnly: true, propagation: "None", createSource: false },
        { source: vol("configmap", "cfg"), target: "/etc/lab", readOnly: true, propagation: "None", createSource: false },
        { source: vol("projected", "sa"), target: "/var/run/secrets/kubernetes.io/serviceaccount", readOnly: true, propagation: "None", createSource: false },
        { source: `${vol("empty-dir", "scratch")}/web-0/logs`, target: "/scratch", readOnly: false, propagation: "None", createSource: true },
        { source: `${vol("empty-dir", "scratch")}/cache`, target: "/cache", readOnly: false, propagation: "None", createSource: true },
    ]);
});

test("mount plan: bad subPaths, unknown volumes and unsupported volume types are refused with the kubelet's words", () => {
    const cases: Array<[Container["volumeMounts"], RegExp]> = [
        [[{ name: "scratch", mountPath: "/x", subPath: "/abs" }], /SubPath `\/abs` must not be an absolute path/],
        [[{ name: "scratch", mountPath: "/x", subPath: "a/../../b" }], /must not contain '\.\.'/],
        [[{ name: "scratch", mountPath: "/x", subPathExpr: "$(UP)" }], /must not contain '\.\.'/],
        [[{ name: "nope", mountPath: "/x" }], /volumeMount nope names no volume/],
        [[{ name: "pvc", mountPath: "/x" }], /volume pvc: type persistentVolumeClaim is not supported/],
    ];
    for (const [volumeMountsOf, message] of cases) {
        const c: Container = { name: "main", volumeMounts: volumeMountsOf };
        const p = pod([c], { volumes: [{ name: "scratch", emptyDir: {} }, { name: "pvc", persistentVolumeClaim: { claimName: "data" } }] });
        assert.throws(() => volumeMounts(p, c, new Map([["UP", ".."]]), ROOT), (e: unknown) => e instanceof WaitingError && message.test(e.message), String(message));
    }
});

test("mount plan: image files bound read-only at their paths, /etc/hosts unless a volume takes it, parents before children", () => {
    const image = imageMounts("/opt/ovn-kubernetes-lab/image", ["usr/bin/ovnkube", "usr/libexec/cni/ovn-k8s-cni-overlay"]);
    assert.deepEqual(image[0], { source: "/opt/ovn-kubernetes-lab/image/usr/bin/ovnkube", target: "/usr/bin/ovnkube", readOnly: true, propagation: "None", createSource: false });
    const deep = { source: "/h/a", target: "/var/run/secrets/kubernetes.io/serviceaccount", readOnly: true, propagation: "None" as const, createSource: false };
    const shallow = { source: "/h/b", target: "/var/run", readOnly: false, propagation: "None" as const, createSource: false };
    const hosts = etcHostsMount(ROOT, UID);
    assert.equal(hosts.source, `${ROOT}/pods/${UID}/etc-hosts`);
    const all = containerMounts({ image, etcHosts: hosts, volumes: [deep, shallow] });
    assert.deepEqual(all.map((m) => m.target), ["/etc/hosts", "/var/run", "/usr/bin/ovnkube", "/usr/libexec/cni/ovn-k8s-cni-overlay", "/var/run/secrets/kubernetes.io/serviceaccount"]);
    const ownHosts = { ...shallow, target: "/etc/hosts" };
    assert.deepEqual(containerMounts({ image: [], etcHosts: hosts, volumes: [ownHosts] }), [ownHosts]);
});

test("volume files: ConfigMap keys or items, Secret values decoded, downward API fields, projected token, CA and namespace", () => {
    const p = pod([{ name: "main" }], {
        volumes: [
            { name: "all", configMap: { name: "cfg" } },
            { name: "some", configMap: { name: "cfg", items: [{ key: "mtu", path: "net/mtu", mode: 0o600 }] } },
            { name: "sec", secret: { secretName: "creds", defaultMode: 0o400 } },
            { name: "info", downwardAPI: { items: [{ path: "labels", fieldRef: { fieldPath: "metadata.labels" } }] } },
            {
                name: "kube-api-access-x",
                projected: {
                    defaultMode: 0o644,
                    sources: [
                        { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
                        { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
                        { downwardAPI: { items: [{ path: "namespace", fieldRef: { fieldPath: "metadata.namespace" } }] } },
                    ],
                },
            },
        ],
    });
    const objs: PodObjects = { ...objects, configMaps: new Map([...objects.configMaps, ["kube-root-ca.crt", configMap("kube-root-ca.crt", { "ca.crt": "PEM" })]]) };
    const tokens = new Map([["kube-api-access-x/token", "header.payload.sig"]]);
    const files = (name: string) =>
        volumeFiles(p, p.spec!.volumes!.find((v) => v.name === name)!, objs, addresses, tokens).map((f) => [f.path, f.data.toString(), f.mode.toString(8)]);
    assert.deepEqual(files("all").map((f) => f[0]).sort(), [".dotted", "bad-key!", "greeting", "mtu"]);
    assert.deepEqual(files("some"), [["net/mtu", "1400", "600"]]);
    assert.deepEqual(files("sec").sort(), [["password", "s3cr3t", "400"], ["user", "lab", "400"]]);
    assert.deepEqual(files("info"), [["labels", 'app="web"\ntier="front"', "644"]]);
    assert.deepEqual(files("kube-api-access-x"), [["token", "header.payload.sig", "644"], ["ca.crt", "PEM", "644"], ["namespace", "lab", "644"]]);
    assert.deepEqual(tokenSources(p), [{ key: "kube-api-access-x/token", audiences: [], expirationSeconds: 3607 }]);
});

test("volume files: a missing object or key fails the setup unless optional; paths may not leave the volume", () => {
    const v = (volume: NonNullable<NonNullable<Pod["spec"]>["volumes"]>[number]) => () => volumeFiles(pod([{ name: "m" }]), volume, objects, addresses, new Map());
    assert.throws(v({ name: "x", configMap: { name: "missing" } }), /configmap "missing" not found/);
    assert.deepEqual(v({ name: "x", configMap: { name: "missing", optional: true } })(), []);
    assert.throws(v({ name: "x", configMap: { name: "cfg", items: [{ key: "nope", path: "n" }] } }), /configmap references non-existent config key: nope/);
    assert.throws(v({ name: "x", secret: { secretName: "creds", items: [{ key: "nope", path: "n" }] } }), /secret references non-existent secret key: nope/);
    assert.throws(v({ name: "x", configMap: { name: "cfg", items: [{ key: "mtu", path: "../escape" }] } }), /leaves the volume/);
    assert.throws(v({ name: "x", projected: { sources: [{ serviceAccountToken: { path: "token" } }] } }), /no service account token/);
});

test("/etc/hosts of a pod with its own network: the kubelet's managed file with the pod's address and aliases", () => {
    const text = etcHostsContent(["10.244.1.7"], "web-0", [{ ip: "10.0.0.5", hostnames: ["db", "db.lab"] }]);
    assert.match(text, /^# Kubernetes-managed hosts file\.\n127\.0\.0\.1\tlocalhost\n/);
    assert.match(text, /\n10\.244\.1\.7\tweb-0\n/);
    assert.match(text, /# Entries added by HostAliases\.\n10\.0\.0\.5\tdb\tdb\.lab\n$/);
});

test("a container's launch: host namespaces, then the pod's network, its own mount namespace, values as arguments and secrets only in the environment", () => {
    const argv = launchArgv({
        holderPid: 4242,
        netnsPath: "/var/run/netns/cni-1234",
        hostname: "web-0",
        mounts: [{ source: "/h/src dir", target: "/t;rm -rf /", readOnly: true, propagation: "None", createSource: false }],
        workingDir: "/work",
        argv: ["/bin/echo", "$(not expanded here)", "a b"],
        env: { PASSWORD: "s3cr3t", PWD: "/spec-pwd" },
    });
    assert.deepEqual(argv.slice(0, 15), [
        "/usr/bin/nsenter", "-t", "4242", "-m", "-u", "--",
        "/usr/bin/nsenter", "--net=/var/run/netns/cni-1234", "--",
        "/usr/bin/unshare", "--mount", "--uts", "--propagation", "slave", "--",
    ]);
    assert.deepEqual(argv.slice(19), ["web-0", "/work", "1", "/h/src dir", "/t;rm -rf /", "ro", "None", "-", "1", "PWD=/spec-pwd", "/bin/echo", "$(not expanded here)", "a b"]);
    assert.ok(!argv.some((a) => a.includes("s3cr3t")), "a Secret's value must not be on the command line");
    const hostNet = launchArgv({ holderPid: 7, mounts: [], argv: ["true"], env: {} });
    assert.deepEqual(hostNet.slice(0, 11), ["/usr/bin/nsenter", "-t", "7", "-m", "-u", "--", "/usr/bin/unshare", "--mount", "--propagation", "slave", "--"]);
});
