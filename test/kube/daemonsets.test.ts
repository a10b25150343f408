// What each DaemonSet is for: where it runs, with which privileges, host directories and command.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kubeManifests } from "../../components/kube/manifests";
import type { Container, DaemonSet } from "../../components/kube/types";
import { kubeModel } from "./fixture";

const main = (ds: DaemonSet): Container => ds.spec.template.spec.containers[0];
const flag = (c: Container, name: string): string | undefined => {
    const args = c.args ?? [];
    const i = args.indexOf(name);
    return i < 0 ? undefined : args[i + 1];
};

describe("ovnkube-master", () => {
    const { master } = kubeManifests(kubeModel());
    const pod = master.spec.template.spec;

    it("runs on control-plane Linux nodes, and only on the model's masters", () => {
        assert.deepEqual(pod.nodeSelector, { "node-role.kubernetes.io/control-plane": "", "kubernetes.io/os": "linux" });
        const terms = pod.affinity?.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;
        assert.deepEqual(terms, [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["master-0", "master-1"] }] }]);
        assert.equal(pod.priorityClassName, "system-cluster-critical");
    });

    it("runs `ovnkube -init-master <node>` unprivileged, in the host network only", () => {
        const c = main(master);
        assert.deepEqual(c.command, ["/usr/bin/ovnkube"]);
        assert.equal(flag(c, "-init-master"), "$(K8S_NODE)");
        assert.equal(flag(c, "-init-node"), undefined);
        assert.equal(c.securityContext.privileged, false);
        assert.equal(c.securityContext.allowPrivilegeEscalation, false);
        assert.equal(pod.hostPID, false);
        assert.equal(pod.volumes, undefined);
    });

    it("keeps its leader-election lock in the model's namespace", () => {
        assert.equal(flag(main(master), "-ovn-config-namespace"), "ovn-kubernetes");
    });
});

describe("ovnkube-node", () => {
    const { node } = kubeManifests(kubeModel());
    const pod = node.spec.template.spec;
    const c = main(node);

    it("runs on every Linux node with host network, host PIDs and a privileged container", () => {
        assert.deepEqual(pod.nodeSelector, { "kubernetes.io/os": "linux" });
        assert.equal(pod.affinity, undefined);
        assert.equal(pod.hostNetwork, true);
        assert.equal(pod.hostPID, true);
        assert.equal(c.securityContext.privileged, true);
        assert.equal(pod.priorityClassName, "system-node-critical");
    });

    it("runs `ovnkube -init-node <node>` with the node name from the pod's spec", () => {
        assert.deepEqual(c.command, ["/usr/bin/ovnkube"]);
        assert.equal(flag(c, "-init-node"), "$(K8S_NODE)");
        assert.equal(flag(c, "-init-master"), undefined);
        assert.ok(!(c.args ?? []).includes("-init-gateways"));
        const nodeEnv = c.env?.find((e) => e.name === "K8S_NODE");
        assert.deepEqual(nodeEnv?.valueFrom, { fieldRef: { fieldPath: "spec.nodeName" } });
    });

    it("mounts the three CNI host paths where the seeds put them", () => {
        const hostPath = (path: string) => pod.volumes?.find((v) => v.hostPath.path === path);
        const mountPath = (path: string) => c.volumeMounts?.find((mnt) => mnt.name === hostPath(path)?.name)?.mountPath;
        assert.equal(mountPath("/opt/cni/bin"), "/host/opt/cni/bin");
        assert.equal(mountPath("/etc/cni/net.d"), "/etc/cni/net.d");
        assert.equal(mountPath("/var/lib/cni/networks/ovn-k8s-cni-overlay"), "/var/lib/cni/networks/ovn-k8s-cni-overlay");
    });

    it("mounts the host's OVS and OVN run, log and config directories at the same paths", () => {
        for (const path of ["/var/run/openvswitch", "/var/run/ovn", "/var/log/openvswitch", "/var/log/ovn", "/etc/openvswitch"]) {
            const volume = pod.volumes?.find((v) => v.hostPath.path === path);
            assert.ok(volume, path);
            assert.equal(c.volumeMounts?.find((mnt) => mnt.name === volume.name)?.mountPath, path);
        }
        const netns = c.volumeMounts?.find((mnt) => mnt.mountPath === "/var/run/netns");
        assert.equal(netns?.mountPropagation, "HostToContainer");
    });

    it("installs the CNI shim atomically before ovnkube starts", () => {
        const init = pod.initContainers?.[0];
        assert.ok(init);
        const script = init.command[2];
        assert.match(script, /cp -f \/usr\/libexec\/cni\/ovn-k8s-cni-overlay \/host\/opt\/cni\/bin\/ovn-k8s-cni-overlay\.tmp/);
        assert.match(script, /mv -f \/host\/opt\/cni\/bin\/ovn-k8s-cni-overlay\.tmp \/host\/opt\/cni\/bin\/ovn-k8s-cni-overlay$/);
        assert.deepEqual(init.volumeMounts?.map((mnt) => mnt.mountPath), ["/host/opt/cni/bin"]);
        assert.equal(init.securityContext.privileged, false);
    });

    it("is ready only once ovnkube has written the CNI config", () => {
        assert.deepEqual(c.readinessProbe?.exec.command, ["test", "-f", "/etc/cni/net.d/10-ovn-kubernetes.conf"]);
    });
});

describe("ovnkube arguments", () => {
    it("pass the databases, API server, subnets and MTU from ovn-config", () => {
        const c = main(kubeManifests(kubeModel()).node);
        assert.equal(flag(c, "-nb-address"), "$(OVN_NORTH)");
        assert.equal(flag(c, "-sb-address"), "$(OVN_SOUTH)");
        assert.equal(flag(c, "-k8s-apiserver"), "$(K8S_APISERVER)");
        // ovnkube's `<cidr>/<node subnet length>`, so its node subnets are the model's size.
        assert.equal(flag(c, "-cluster-subnet"), "$(OVN_NET_CIDR)/$(OVN_HOST_SUBNET_LENGTH)");
        assert.equal(flag(c, "-service-cluster-ip-range"), "$(OVN_SVC_CIDR)");
        assert.equal(flag(c, "-mtu"), "$(MTU)");
        assert.equal(flag(c, "-encap-type"), "$(OVN_ENCAP_TYPE)");
    });

    it("leave optional flags out when ovn-config lacks their keys", () => {
        const config = { ...kubeModel().config };
        delete config.mtu;
        delete config.host_subnet_length;
        delete config.encap_type;
        const c = main(kubeManifests(kubeModel({ config })).node);
        assert.equal(flag(c, "-mtu"), undefined);
        assert.equal(flag(c, "-encap-type"), undefined);
        assert.equal(flag(c, "-cluster-subnet"), "$(OVN_NET_CIDR)");
        assert.deepEqual(c.env?.map((e) => e.name), ["K8S_NODE", "OVN_NORTH", "OVN_SOUTH", "K8S_APISERVER", "OVN_NET_CIDR", "OVN_SVC_CIDR"]);
    });

    it("present the host's OVN client SSL files to ssl: databases, read-only on the master", () => {
        const ssl = kubeModel({ config: { ...kubeModel().config, OvnNorth: "ssl:10.0.0.5:6641", OvnSouth: "ssl:10.0.0.5:6642" } });
        const { master, node } = kubeManifests(ssl);
        for (const ds of [master, node]) {
            const c = main(ds);
            for (const db of ["nb", "sb"]) {
                assert.equal(flag(c, `-${db}-client-privkey`), "/etc/openvswitch/ovn-controller-privkey.pem");
                assert.equal(flag(c, `-${db}-client-cert`), "/etc/openvswitch/ovn-controller-cert.pem");
                assert.equal(flag(c, `-${db}-client-cacert`), "/etc/openvswitch/ovn-controller-cacert.pem");
            }
        }
        assert.deepEqual(main(master).volumeMounts, [{ name: "host-etc-openvswitch", mountPath: "/etc/openvswitch", readOnly: true }]);
        assert.deepEqual(master.spec.template.spec.volumes, [{ name: "host-etc-openvswitch", hostPath: { path: "/etc/openvswitch", type: "Directory" } }]);
        assert.equal(flag(main(kubeManifests(kubeModel()).master), "-nb-client-privkey"), undefined);
    });

    it("authenticate with the service account's token file, and its CA when the API is https", () => {
        for (const ds of Object.values(kubeManifests(kubeModel())).filter((o) => o.kind === "DaemonSet") as DaemonSet[]) {
            const c = main(ds);
            assert.equal(flag(c, "-k8s-token-file"), "/var/run/secrets/kubernetes.io/serviceaccount/token");
            assert.equal(flag(c, "-k8s-cacert"), "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt");
            assert.equal(flag(c, "-k8s-token"), undefined);
        }
    });

    it("use no CA file against a plain-http API server", () => {
        const insecure = kubeModel({ secureApi: false, config: { ...kubeModel().config, k8s_apiserver: "http://10.19.188.22:8080" } });
        const c = main(kubeManifests(insecure).master);
        assert.equal(flag(c, "-k8s-cacert"), undefined);
        assert.equal(flag(c, "-k8s-token-file"), "/var/run/secrets/kubernetes.io/serviceaccount/token");
    });
});
