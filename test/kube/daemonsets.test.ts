// What each DaemonSet is for: where it runs, with which privileges, host directories and command
// line (ovnkube v1.0.0's flags).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kubeManifests } from "../../components/kube/manifests";
import { remoteHost } from "../../components/kube/ovnkube-args";
import type { Container, DaemonSet } from "../../components/kube/types";
import { kubeModel, oneGroupModel } from "./fixture";
import { affinityNodes, flag, hasFlag as has, main } from "./inspect";

/** Container path → host path of every hostPath the container mounts. */
const hostMounts = (ds: DaemonSet, c: Container) =>
    new Map(
        (c.volumeMounts ?? []).map((mnt) => {
            const volume = ds.spec.template.spec.volumes?.find((v) => v.name === mnt.name);
            assert.ok(volume, `${mnt.name} declared`);
            return [mnt.mountPath, { host: volume.hostPath.path, readOnly: mnt.readOnly === true, propagation: mnt.mountPropagation }];
        }),
    );

describe("ovnkube-master", () => {
    const { master } = kubeManifests(kubeModel());
    const pod = master.spec.template.spec;
    const c = main(master);

    it("runs on control-plane Linux nodes, and only on the model's masters", () => {
        assert.deepEqual(pod.nodeSelector, { "node-role.kubernetes.io/control-plane": "", "kubernetes.io/os": "linux" });
        assert.deepEqual(affinityNodes(master), ["master-0", "master-1"]);
        assert.equal(pod.priorityClassName, "system-cluster-critical");
    });

    it("runs `ovnkube -init-master <node>` unprivileged, in the host network only", () => {
        assert.deepEqual(c.command, ["/usr/bin/ovnkube"]);
        assert.equal(flag(c, "-init-master"), "$(K8S_NODE)");
        assert.ok(!has(c, "-init-node"));
        assert.equal(c.securityContext.privileged, false);
        assert.equal(c.securityContext.allowPrivilegeEscalation, false);
        assert.equal(pod.hostPID, false);
        assert.equal(pod.hostNetwork, true);
    });

    it("keeps the gateways: shared gateway mode, the model's join subnet; service templates and host-network namespace as upstream", () => {
        assert.equal(flag(c, "-gateway-mode"), "shared");
        assert.equal(flag(c, "-host-network-namespace"), "ovn-host-network");
        assert.equal(flag(c, "-gateway-v4-join-subnet"), "100.64.0.0/16");
        assert.ok(has(c, "-enable-svc-template-support"));
        // Node-side flags stay on the node.
        for (const nodeFlag of ["-gateway-interface", "-gateway-nexthop", "-encap-ip", "-encap-type", "-nodeport"]) assert.ok(!has(c, nodeFlag), nodeFlag);
    });

    it("logs to upstream's file in the host's /var/log/ovn-kubernetes and mounts nothing else without SSL", () => {
        assert.equal(flag(c, "-logfile"), "/var/log/ovn-kubernetes/ovnkube-master.log");
        assert.deepEqual([...hostMounts(master, c)], [["/var/log/ovn-kubernetes", { host: "/var/log/ovn-kubernetes", readOnly: false, propagation: undefined }]]);
    });

    it("keeps its leader-election Lease in the model's namespace", () => {
        assert.equal(flag(c, "-ovn-config-namespace"), "ovn-kubernetes");
    });
});

describe("ovnkube-node: one DaemonSet per node group", () => {
    const model = kubeModel();
    const { nodes } = kubeManifests(model);

    it("is named after its group and placed on exactly the group's nodes", () => {
        assert.deepEqual(nodes.map((ds) => ds.metadata.name), ["ovnkube-node-default", "ovnkube-node-breth0-10-19-188-1"]);
        assert.deepEqual(nodes.map(affinityNodes), [["master-0", "master-1", "worker-1"], ["worker-0"]]);
    });

    it("places every node under exactly one DaemonSet", () => {
        const placed = nodes.flatMap(affinityNodes);
        assert.equal(new Set(placed).size, placed.length, `a node under two DaemonSets: ${placed.join(", ")}`);
        assert.deepEqual([...placed].sort(), model.nodes.map((n) => n.name).sort());
    });

    it("gives each group its own selector and the common app label", () => {
        const selectors = nodes.map((ds) => JSON.stringify(ds.spec.selector.matchLabels));
        assert.equal(new Set(selectors).size, nodes.length);
        for (const ds of nodes) {
            assert.deepEqual(ds.spec.selector.matchLabels, { name: ds.metadata.name });
            assert.equal(ds.spec.template.metadata.labels.app, "ovnkube-node");
        }
    });

    it("passes the group's gateway bridge and next hop, and neither to a group without them", () => {
        const [plain, gateway] = nodes.map(main);
        assert.equal(flag(gateway, "-gateway-interface"), "breth0");
        assert.equal(flag(gateway, "-gateway-nexthop"), "10.19.188.1");
        assert.ok(!has(plain, "-gateway-interface"));
        assert.ok(!has(plain, "-gateway-nexthop"));
        for (const c of [plain, gateway]) assert.equal(flag(c, "-gateway-mode"), "shared");
    });

    it("keeps the seeds' name when there is a single group", () => {
        const single = kubeManifests(oneGroupModel()).nodes;
        assert.deepEqual(single.map((ds) => ds.metadata.name), ["ovnkube-node"]);
        assert.deepEqual(affinityNodes(single[0]), ["master-0", "master-1", "worker-0", "worker-1"]);
    });
});

describe("ovnkube-node", () => {
    const ds = kubeManifests(kubeModel()).nodes[1];
    const pod = ds.spec.template.spec;
    const c = main(ds);

    it("runs on Linux nodes with host network, host PIDs and a privileged container", () => {
        assert.deepEqual(pod.nodeSelector, { "kubernetes.io/os": "linux" });
        assert.equal(pod.hostNetwork, true);
        assert.equal(pod.hostPID, true);
        assert.equal(c.securityContext.privileged, true);
        assert.equal(pod.priorityClassName, "system-node-critical");
    });

    it("runs `ovnkube -init-node <node>` with the node name from the pod's spec", () => {
        assert.deepEqual(c.command, ["/usr/bin/ovnkube"]);
        assert.equal(flag(c, "-init-node"), "$(K8S_NODE)");
        assert.ok(!has(c, "-init-master"));
        assert.deepEqual(c.env?.find((e) => e.name === "K8S_NODE")?.valueFrom, { fieldRef: { fieldPath: "spec.nodeName" } });
    });

    it("takes the tunnel endpoint from the Node's InternalIP (the pod's hostIP)", () => {
        assert.equal(flag(c, "-encap-ip"), "$(K8S_NODE_IP)");
        assert.deepEqual(c.env?.find((e) => e.name === "K8S_NODE_IP")?.valueFrom, { fieldRef: { fieldPath: "status.hostIP" } });
        assert.equal(flag(c, "-encap-type"), "$(OVN_ENCAP_TYPE)");
    });

    it("serves NodePorts and logs to upstream's file", () => {
        assert.ok(has(c, "-nodeport"));
        assert.equal(flag(c, "-logfile"), "/var/log/ovn-kubernetes/ovnkube.log");
    });

    it("mounts what ovnkube itself uses on the host, at the host's paths", () => {
        const m = hostMounts(ds, c);
        const same = (path: string) => ({ host: path, readOnly: false, propagation: undefined });
        assert.deepEqual(m.get("/var/run/ovn-kubernetes"), same("/var/run/ovn-kubernetes"), "CNI server socket");
        assert.deepEqual(m.get("/var/log/ovn-kubernetes"), same("/var/log/ovn-kubernetes"));
        assert.deepEqual(m.get("/etc/cni/net.d"), same("/etc/cni/net.d"));
        assert.deepEqual(m.get("/var/run/openvswitch"), same("/var/run/openvswitch"));
        // Debian's OVN run directory, where ovnkube looks for ovn-controller's pid and socket.
        assert.deepEqual(m.get("/var/run/ovn"), same("/var/run/ovn"));
        assert.deepEqual(m.get("/etc/openvswitch"), { host: "/etc/openvswitch", readOnly: true, propagation: undefined });
        assert.deepEqual(m.get("/var/run/netns"), { host: "/var/run/netns", readOnly: false, propagation: "HostToContainer" });
        // The image's iptables wrapper runs `chroot /host iptables`.
        assert.deepEqual(m.get("/host"), { host: "/", readOnly: true, propagation: undefined });
    });

    it("mounts nothing only ovnkube.sh or upstream's OVS/OVN containers use", () => {
        const m = hostMounts(ds, c);
        for (const path of ["/var/lib/kubelet", "/var/run/dbus", "/var/log/openvswitch", "/var/log/ovn", "/opt/cni/bin", "/ovn-cert", "/var/lib/cni/networks/ovn-k8s-cni-overlay"]) {
            assert.ok(!m.has(path), path);
        }
        assert.equal(m.size, 8);
    });

    it("installs the CNI shim from the image into the host's /opt/cni/bin, atomically, before ovnkube starts", () => {
        const init = pod.initContainers?.[0];
        assert.ok(init);
        const script = init.command[2];
        assert.match(script, /cp -f \/usr\/libexec\/cni\/ovn-k8s-cni-overlay \/opt\/cni\/bin\/ovn-k8s-cni-overlay\.tmp;/);
        assert.match(script, /mv -f \/opt\/cni\/bin\/ovn-k8s-cni-overlay\.tmp \/opt\/cni\/bin\/ovn-k8s-cni-overlay$/);
        assert.deepEqual([...hostMounts(ds, init)], [["/opt/cni/bin", { host: "/opt/cni/bin", readOnly: false, propagation: undefined }]]);
        assert.equal(init.securityContext.privileged, false);
    });

    it("is ready only once ovnkube has written the CNI config", () => {
        assert.deepEqual(c.readinessProbe?.exec.command, ["test", "-f", "/etc/cni/net.d/10-ovn-kubernetes.conf"]);
    });
});

describe("ovnkube arguments", () => {
    const roles = (m: ReturnType<typeof kubeManifests>) => [m.master, ...m.nodes].map(main);

    it("pass the databases, API server, networks and MTU the same way to master and node", () => {
        for (const c of roles(kubeManifests(kubeModel()))) {
            assert.equal(flag(c, "-nb-address"), "$(OVN_NORTH)", c.name);
            assert.equal(flag(c, "-sb-address"), "$(OVN_SOUTH)");
            assert.equal(flag(c, "-k8s-apiserver"), "$(K8S_APISERVER)");
            // ovnkube's `<cidr>/<node subnet length>`, its only way to learn the node subnet size.
            assert.equal(flag(c, "-cluster-subnets"), "$(OVN_NET_CIDR)/$(OVN_HOST_SUBNET_LENGTH)");
            assert.equal(flag(c, "-k8s-service-cidrs"), "$(OVN_SVC_CIDR)");
            assert.equal(flag(c, "-gateway-mode"), "shared");
            assert.equal(flag(c, "-gateway-v4-join-subnet"), "100.64.0.0/16");
            assert.equal(flag(c, "-mtu"), "$(MTU)");
            // No identity mode: without ovnkube.sh nothing passes a bootstrap kubeconfig.
            assert.ok(!has(c, "-bootstrap-kubeconfig"));
        }
    });

    it("follow the model's join subnet", () => {
        for (const c of roles(kubeManifests(kubeModel({ joinSubnet: "100.70.0.0/16" })))) assert.equal(flag(c, "-gateway-v4-join-subnet"), "100.70.0.0/16");
    });

    it("leave optional flags out when ovn-config lacks their keys", () => {
        const config = { ...kubeModel().config };
        delete config.mtu;
        delete config.host_subnet_length;
        delete config.encap_type;
        const c = main(kubeManifests(kubeModel({ config })).nodes[0]);
        assert.ok(!has(c, "-mtu"));
        assert.ok(!has(c, "-encap-type"));
        assert.equal(flag(c, "-cluster-subnets"), "$(OVN_NET_CIDR)");
        assert.deepEqual(c.env?.map((e) => e.name), ["K8S_NODE", "K8S_NODE_IP", "OVN_NORTH", "OVN_SOUTH", "K8S_APISERVER", "OVN_NET_CIDR", "OVN_SVC_CIDR"]);
    });

    it("present the host's OVN client SSL files to ssl: databases, with the address as the name to verify", () => {
        const ssl = kubeModel({ config: { ...kubeModel().config, OvnNorth: "ssl:10.0.0.5:6641", OvnSouth: "ssl:10.0.0.5:6642" } });
        const m = kubeManifests(ssl);
        for (const c of roles(m)) {
            for (const db of ["nb", "sb"]) {
                assert.equal(flag(c, `-${db}-client-privkey`), "/etc/openvswitch/ovn-controller-privkey.pem");
                assert.equal(flag(c, `-${db}-client-cert`), "/etc/openvswitch/ovn-controller-cert.pem");
                assert.equal(flag(c, `-${db}-client-cacert`), "/etc/openvswitch/ovn-controller-cacert.pem");
                assert.equal(flag(c, `-${db}-cert-common-name`), "10.0.0.5");
            }
        }
        assert.deepEqual(hostMounts(m.master, main(m.master)).get("/etc/openvswitch"), { host: "/etc/openvswitch", readOnly: true, propagation: undefined });
        assert.ok(!has(main(kubeManifests(kubeModel()).master), "-nb-client-privkey"));
        assert.ok(!has(main(kubeManifests(kubeModel()).master), "-nb-cert-common-name"));
    });

    it("name the server to verify after the host of the first remote, IPv6 without brackets", () => {
        assert.equal(remoteHost("ssl:10.0.0.5:6641"), "10.0.0.5");
        assert.equal(remoteHost("ssl:central.example.com:6642,ssl:10.0.0.6:6642"), "central.example.com");
        assert.equal(remoteHost("ssl:[fd00::5]:6641"), "fd00::5");
    });

    it("authenticate with the service account's token file, and its CA when the API is https", () => {
        for (const c of roles(kubeManifests(kubeModel()))) {
            assert.equal(flag(c, "-k8s-token-file"), "/var/run/secrets/kubernetes.io/serviceaccount/token");
            assert.equal(flag(c, "-k8s-cacert"), "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt");
            assert.ok(!has(c, "-k8s-token"));
        }
    });

    it("use no CA file against a plain-http API server", () => {
        const insecure = kubeModel({ secureApi: false, config: { ...kubeModel().config, k8s_apiserver: "http://10.19.188.22:8080" } });
        const c = main(kubeManifests(insecure).master);
        assert.ok(!has(c, "-k8s-cacert"));
        assert.equal(flag(c, "-k8s-token-file"), "/var/run/secrets/kubernetes.io/serviceaccount/token");
    });
});
