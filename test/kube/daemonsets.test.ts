// What each DaemonSet is for, in both architectures: where it runs, with which privileges, host
// directories and command line (ovn-kubernetes 1.3's flags). Interconnect: the cluster manager
// (ovnkube-control-plane) and per node the zone's controller with the node (ovnkube-controller);
// centralized: the master and per node ovnkube-node, both talking to the central's databases.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import { remoteHost } from "../../components/kube/ovnkubeArgs";
import type { Container, DaemonSet } from "../../components/kube/objectTypes";
import type { KubeModel } from "../../components/model/types";
import { bothArchitectures, interconnectModel, kubeModel, oneGroupModel } from "./fixture";
import { affinityNodes, flag, hasFlag as has, main, selectedNodes } from "./inspect";

/** Container path → host path of every hostPath the container mounts. */
const hostMounts = (ds: DaemonSet, c: Container) =>
    new Map(
        (c.volumeMounts ?? []).map((mnt) => {
            const volume = ds.spec.template.spec.volumes?.find((v) => v.name === mnt.name);
            assert.ok(volume && "hostPath" in volume, `${mnt.name} declared as a host path`);
            return [mnt.mountPath, { host: volume.hostPath.path, readOnly: mnt.readOnly === true, propagation: mnt.mountPropagation }];
        }),
    );

/** The main container of every DaemonSet: the control plane's, then each node group's. */
const roles = (model: KubeModel) => {
    const m = kubeManifests(model);
    return [m.controlPlane, ...m.nodes].map(main);
};

/** Flags only the nodes take: gateway, tunnel and NodePort settings. */
const NODE_FLAGS = ["-gateway-interface", "-gateway-nexthop", "-encap-ip", "-encap-type", "-nodeport"];

describe("the control plane", () => {
    for (const [architecture, model] of bothArchitectures()) {
        describe(architecture, () => {
            const { controlPlane } = kubeManifests(model);
            const pod = controlPlane.spec.template.spec;
            const c = main(controlPlane);

            it("runs on control-plane Linux nodes, and only on the model's masters", () => {
                assert.deepEqual(pod.nodeSelector, { "node-role.kubernetes.io/control-plane": "", "kubernetes.io/os": "linux" });
                assert.deepEqual(affinityNodes(controlPlane), ["master-0", "master-1"]);
                assert.equal(pod.priorityClassName, "system-cluster-critical");
            });

            it("runs one ovnkube unprivileged, in the host network only", () => {
                assert.equal(pod.containers.length, 1);
                assert.deepEqual(c.command, ["/usr/bin/ovnkube"]);
                assert.equal(c.securityContext.privileged, false);
                assert.equal(c.securityContext.allowPrivilegeEscalation, false);
                assert.equal(pod.hostPID, false);
                assert.equal(pod.hostNetwork, true);
            });

            it("keeps the gateways: shared gateway mode, the model's join and masquerade subnets, the host-network namespace", () => {
                assert.equal(flag(c, "-gateway-mode"), "shared");
                assert.equal(flag(c, "-host-network-namespace"), "ovn-host-network");
                assert.equal(flag(c, "-gateway-v4-join-subnet"), "100.64.0.0/16");
                assert.equal(flag(c, "-gateway-v4-masquerade-subnet"), "169.254.0.0/17");
                // Node-side flags stay on the node.
                for (const nodeFlag of NODE_FLAGS) assert.ok(!has(c, nodeFlag), nodeFlag);
            });

            it("mounts only its log directory without SSL", () => {
                assert.deepEqual(
                    [...hostMounts(controlPlane, c)],
                    [["/var/log/ovn-kubernetes", { host: "/var/log/ovn-kubernetes", readOnly: false, propagation: undefined }]],
                );
            });

            it("keeps its leader-election Lease in the model's namespace", () => {
                assert.equal(flag(c, "-ovn-config-namespace"), "ovn-kubernetes");
            });
        });
    }

    describe("interconnect: DaemonSet ovnkube-control-plane", () => {
        const { controlPlane } = kubeManifests(interconnectModel());
        const c = main(controlPlane);

        it("runs the cluster manager, `ovnkube -init-cluster-manager <node>`, and nothing that writes a database", () => {
            assert.equal(controlPlane.metadata.name, "ovnkube-control-plane");
            assert.equal(c.name, "ovnkube-cluster-manager");
            assert.equal(flag(c, "-init-cluster-manager"), "$(K8S_NODE)");
            for (const other of ["-init-master", "-init-node", "-init-ovnkube-controller", "-zone", "-enable-svc-template-support"])
                assert.ok(!has(c, other), other);
            for (const db of ["-nb-address", "-sb-address"]) assert.ok(!has(c, db), db);
        });

        it("hands out transit addresses from the model's transit subnet", () => {
            assert.ok(has(c, "-enable-interconnect"));
            assert.equal(flag(c, "-cluster-manager-v4-transit-subnet"), "100.88.0.0/16");
            assert.equal(
                flag(
                    main(kubeManifests(interconnectModel({ transitSubnets: ["100.90.0.0/16"] })).controlPlane),
                    "-cluster-manager-v4-transit-subnet",
                ),
                "100.90.0.0/16",
            );
        });

        it("logs to upstream's cluster-manager file in the host's /var/log/ovn-kubernetes", () => {
            assert.equal(flag(c, "-logfile"), "/var/log/ovn-kubernetes/ovnkube-cluster-manager.log");
        });
    });

    describe("centralized: DaemonSet ovnkube-master", () => {
        const { controlPlane } = kubeManifests(kubeModel());
        const c = main(controlPlane);

        it("runs `ovnkube -init-master <node>` against the central's databases, with service templates as upstream", () => {
            assert.equal(controlPlane.metadata.name, "ovnkube-master");
            assert.equal(c.name, "ovnkube-master");
            assert.equal(flag(c, "-init-master"), "$(K8S_NODE)");
            for (const other of [
                "-init-cluster-manager",
                "-init-node",
                "-init-ovnkube-controller",
                "-zone",
                "-enable-interconnect",
                "-cluster-manager-v4-transit-subnet",
            ])
                assert.ok(!has(c, other), other);
            assert.equal(flag(c, "-nb-address"), "$(OVN_NORTH)");
            assert.equal(flag(c, "-sb-address"), "$(OVN_SOUTH)");
            assert.ok(has(c, "-enable-svc-template-support"));
        });

        it("logs to upstream's master file in the host's /var/log/ovn-kubernetes", () => {
            assert.equal(flag(c, "-logfile"), "/var/log/ovn-kubernetes/ovnkube-master.log");
        });
    });
});

describe("ovnkube-node: one DaemonSet per node group", () => {
    for (const [architecture, model] of bothArchitectures()) {
        describe(architecture, () => {
            const { nodes, nodePlans } = kubeManifests(model);
            const placedOn = (ds: (typeof nodes)[number]) => selectedNodes(ds, nodePlans);

            it("is named after its group and placed on exactly the group's nodes, by the label their plans carry, not by their names", () => {
                assert.deepEqual(
                    nodes.map((ds) => ds.metadata.name),
                    ["ovnkube-node-default", "ovnkube-node-breth0-10-19-188-1"],
                );
                assert.deepEqual(nodes.map(placedOn), [["master-0", "master-1", "worker-1"], ["worker-0"]]);
                for (const ds of nodes) {
                    assert.deepEqual(ds.spec.template.spec.nodeSelector, {
                        "kubernetes.io/os": "linux",
                        "ovn-kubernetes-as-code/ovnkube-node-group": ds.metadata.name,
                    });
                    assert.equal(ds.spec.template.spec.affinity, undefined);
                }
            });

            it("leaves every node's DaemonSet as it was when a node joins a group: only the new node's plan is new", () => {
                const joining = { ...model.nodes[3], name: "worker-2", subnet: "10.128.8.0/23", nodeId: 6 };
                const grown = kubeManifests({
                    ...model,
                    nodes: [...model.nodes, joining],
                    nodeGroups: model.nodeGroups.map((g, i) => (i === 0 ? { ...g, nodes: [...g.nodes, joining.name] } : g)),
                });
                assert.deepEqual(grown.nodes, nodes);
                assert.deepEqual(selectedNodes(grown.nodes[0], grown.nodePlans), ["master-0", "master-1", "worker-1", "worker-2"]);
            });

            it("places every node under exactly one DaemonSet", () => {
                const placed = nodes.flatMap(placedOn);
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
                const single = kubeManifests(oneGroupModel({ architecture: model.architecture, config: model.config }));
                assert.deepEqual(
                    single.nodes.map((ds) => ds.metadata.name),
                    ["ovnkube-node"],
                );
                assert.deepEqual(selectedNodes(single.nodes[0], single.nodePlans), ["master-0", "master-1", "worker-0", "worker-1"]);
            });
        });
    }
});

describe("ovnkube-node", () => {
    for (const [architecture, model] of bothArchitectures()) {
        describe(architecture, () => {
            const ds = kubeManifests(model).nodes[1];
            const pod = ds.spec.template.spec;
            const c = main(ds);

            it("runs on Linux nodes with host network, host PIDs and a privileged container", () => {
                assert.equal(pod.nodeSelector?.["kubernetes.io/os"], "linux");
                assert.equal(pod.hostNetwork, true);
                assert.equal(pod.hostPID, true);
                assert.equal(c.securityContext.privileged, true);
                assert.equal(pod.priorityClassName, "system-node-critical");
            });

            it("runs `ovnkube -init-node <node>` with the node name from the pod's spec", () => {
                assert.deepEqual(c.command, ["/usr/bin/ovnkube"]);
                assert.equal(flag(c, "-init-node"), "$(K8S_NODE)");
                assert.ok(!has(c, "-init-master"));
                assert.ok(!has(c, "-init-cluster-manager"));
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
                // Debian's OVN run directory: ovn-controller's pid and socket and, with interconnect, the zone's database sockets.
                assert.deepEqual(m.get("/var/run/ovn"), same("/var/run/ovn"));
                assert.deepEqual(m.get("/etc/openvswitch"), { host: "/etc/openvswitch", readOnly: true, propagation: undefined });
                assert.deepEqual(m.get("/var/run/netns"), { host: "/var/run/netns", readOnly: false, propagation: "HostToContainer" });
                // The image's iptables wrapper runs `chroot /host iptables`.
                assert.deepEqual(m.get("/host"), { host: "/", readOnly: true, propagation: undefined });
            });

            it("mounts nothing only ovnkube.sh or upstream's OVS/OVN containers use", () => {
                const m = hostMounts(ds, c);
                for (const path of [
                    "/var/lib/kubelet",
                    "/var/run/dbus",
                    "/var/log/openvswitch",
                    "/var/log/ovn",
                    "/opt/cni/bin",
                    "/ovn-cert",
                    "/var/lib/cni/networks/ovn-k8s-cni-overlay",
                ]) {
                    assert.ok(!m.has(path), path);
                }
                // With node identities also the kubelet's kubeconfig directory and client certificates (test/kube/identity.test.ts).
                assert.equal(m.size, model.identity ? 10 : 8);
            });

            it("installs the CNI shim from the image into the host's /opt/cni/bin, atomically, before ovnkube starts", () => {
                const init = pod.initContainers?.[0];
                assert.ok(init);
                const script = init.command[2];
                assert.match(script, /cp -f \/usr\/libexec\/cni\/ovn-k8s-cni-overlay \/opt\/cni\/bin\/ovn-k8s-cni-overlay\.tmp;/);
                assert.match(script, /mv -f \/opt\/cni\/bin\/ovn-k8s-cni-overlay\.tmp \/opt\/cni\/bin\/ovn-k8s-cni-overlay$/);
                assert.deepEqual(
                    [...hostMounts(ds, init)],
                    [["/opt/cni/bin", { host: "/opt/cni/bin", readOnly: false, propagation: undefined }]],
                );
                assert.equal(init.securityContext.privileged, false);
            });

            it("is ready only once ovnkube has written the CNI config", () => {
                assert.deepEqual(c.readinessProbe?.exec.command, ["test", "-f", "/etc/cni/net.d/10-ovn-kubernetes.conf"]);
            });
        });
    }

    it("interconnect: also runs the zone's network controller, named after the node, on the zone's own databases", () => {
        for (const c of kubeManifests(interconnectModel()).nodes.map(main)) {
            assert.equal(c.name, "ovnkube-controller");
            assert.equal(flag(c, "-init-ovnkube-controller"), "$(K8S_NODE)");
            assert.equal(flag(c, "-init-node"), "$(K8S_NODE)");
            assert.equal(flag(c, "-zone"), "$(K8S_NODE)");
            assert.ok(has(c, "-enable-interconnect"));
            assert.ok(has(c, "-enable-svc-template-support"));
            // ovnkube's defaults: the zone's unix sockets in /var/run/ovn.
            for (const db of ["-nb-address", "-sb-address"]) assert.ok(!has(c, db), db);
        }
    });

    it("OVN from the image: the zone's NB, SB, northd and ovn-controller beside ovnkube, their databases in the host's /var/lib/openvswitch", () => {
        const model = interconnectModel({ ovnSource: "image" });
        for (const ds of kubeManifests(model).nodes) {
            const spec = ds.spec.template.spec;
            assert.deepEqual(
                spec.containers.map((c) => c.name),
                ["ovnkube-controller", "nb-ovsdb", "sb-ovsdb", "ovn-northd", "ovn-controller"],
            );
            const byName = new Map(spec.containers.map((c) => [c.name, c]));
            for (const c of spec.containers) assert.equal(c.image, model.image, c.name);
            // Databases on the host where upstream's chart keeps them; sockets where ovnkube's defaults look.
            for (const name of ["nb-ovsdb", "sb-ovsdb"]) {
                const mounts = hostMounts(ds, byName.get(name)!);
                assert.equal(mounts.get("/etc/ovn")?.host, "/var/lib/openvswitch", name);
                assert.equal(mounts.get("/var/run/ovn")?.host, "/var/run/ovn", name);
            }
            assert.match(
                byName.get("nb-ovsdb")!.command.join(" "),
                /set -- --db-nb-file=\/etc\/ovn\/ovnnb_db\.db .*\nrm -f \/var\/run\/ovn\/ovnnb_db\.pid\n.*ovn-ctl "\$@" run_nb_ovsdb &/,
            );
            // The zone's NB_Global cells, named after the pod's node: ovnkube-controller waits for them.
            assert.match(
                byName.get("nb-ovsdb")!.command.join(" "),
                /set NB_Global \. name="\$K8S_NODE" options:name="\$K8S_NODE" options:northd-backoff-interval-ms=300/,
            );
            assert.match(
                byName.get("sb-ovsdb")!.command.join(" "),
                /set -- --db-sb-file=\/etc\/ovn\/ovnsb_db\.db .*\nrm -f \/var\/run\/ovn\/ovnsb_db\.pid\n.*ovn-ctl "\$@" run_sb_ovsdb &/,
            );
            // northd starts once the zone is named: the NB_Global row is nb-ovsdb's.
            assert.match(
                byName.get("ovn-northd")!.command.join(" "),
                /"where":\[\["name","!=",""\]\][\s\S]*exec ovn-northd --ovnnb-db=unix:/,
            );
            const controller = byName.get("ovn-controller")!;
            assert.equal(controller.securityContext.privileged, true);
            assert.equal(controller.command[1], "unix:/var/run/openvswitch/db.sock");
            assert.equal(hostMounts(ds, controller).get("/var/run/openvswitch")?.host, "/var/run/openvswitch");
            // No OVN package makes the run directory on such a host: the kubelet does.
            const volumes = spec.volumes ?? [];
            const run = volumes.find((v) => "hostPath" in v && v.hostPath.path === "/var/run/ovn");
            assert.equal(run && "hostPath" in run ? run.hostPath.type : undefined, "DirectoryOrCreate");
            assert.equal(new Set(volumes.map((v) => v.name)).size, volumes.length, "each volume once");
        }
        // The packages mode's pod is ovnkube alone, on the host's own OVN run directory.
        const packaged = kubeManifests(interconnectModel()).nodes[0].spec.template.spec;
        assert.deepEqual(
            packaged.containers.map((c) => c.name),
            ["ovnkube-controller"],
        );
        const run = (packaged.volumes ?? []).find((v) => "hostPath" in v && v.hostPath.path === "/var/run/ovn");
        assert.equal(run && "hostPath" in run ? run.hostPath.type : undefined, "Directory");
    });

    it("centralized, OVN from the image: ovnkube-db on each central (raft of 3, the first creates, the others join), ovn-controller in every ovnkube-node pod", () => {
        const members = [
            { node: "master-0", ip: "10.19.188.22" },
            { node: "master-1", ip: "10.19.188.21" },
            { node: "worker-0", ip: "10.19.188.23" },
        ];
        const remotes = (port: number) => members.map((m) => `tcp:${m.ip}:${port}`).join(",");
        const model = kubeModel({
            ovnSource: "image",
            centralDatabases: { members, nbPort: 6641, sbPort: 6642, raft: { nbPort: 6643, sbPort: 6644 } },
            // The model lists every central in ovn-config, as it does for the master.
            config: { ...kubeModel().config, OvnNorth: remotes(6641), OvnSouth: remotes(6642) },
        });
        const m = kubeManifests(model);
        const db = m.databases!;
        assert.equal(db.metadata.name, "ovnkube-db");
        assert.deepEqual(affinityNodes(db), ["master-0", "master-1", "worker-0"]);
        const spec = db.spec.template.spec;
        assert.deepEqual(
            spec.containers.map((c) => c.name),
            ["nb-ovsdb", "sb-ovsdb", "ovn-northd"],
        );
        const nb = spec.containers[0].command.join(" ");
        // Each member on its own planned address, by its node's name; raft on the raft port.
        assert.match(nb, /master-1\) ip='10\.19\.188\.21' ;;/);
        assert.match(nb, /--db-nb-create-insecure-remote=yes --db-nb-addr="\$ip" --db-nb-port=6641/);
        assert.match(nb, /--db-nb-cluster-local-addr="\$ip" --db-nb-cluster-local-port=6643/);
        assert.match(nb, /if \[ "\$K8S_NODE" != 'master-0' \]; then join='10\.19\.188\.22'/);
        assert.match(
            spec.containers[2].command.join(" "),
            /--ovnnb-db=tcp:10\.19\.188\.22:6641,tcp:10\.19\.188\.21:6641,tcp:10\.19\.188\.23:6641 --ovnsb-db=tcp:10\.19\.188\.22:6642,/,
        );
        // The databases before the master in the apply order; every node pod runs ovn-controller beside ovnkube-node.
        const order = manifestList(m).map((o) => `${o.kind}/${o.metadata.name}`);
        assert.ok(order.indexOf("DaemonSet/ovnkube-db") < order.indexOf("DaemonSet/ovnkube-master"), order.join(", "));
        for (const ds of m.nodes)
            assert.deepEqual(
                ds.spec.template.spec.containers.map((c) => c.name),
                ["ovnkube-node", "ovn-controller"],
            );
        // NB_Global's row from the NB container, on every member; one central: standalone databases.
        assert.match(
            nb,
            /if \[ "\$K8S_NODE" = 'master-0' \]; then ovn-nbctl --db=unix:\/var\/run\/ovn\/ovnnb_db\.sock --no-leader-only --timeout=30 init; fi/,
        );
        const one = kubeManifests(
            kubeModel({ ovnSource: "image", centralDatabases: { members: members.slice(0, 1), nbPort: 6641, sbPort: 6642 } }),
        );
        const single = one.databases!.spec.template.spec.containers[0].command.join(" ");
        assert.doesNotMatch(single, /cluster-local/);
        assert.match(single, /ovn-nbctl --db=unix:\/var\/run\/ovn\/ovnnb_db\.sock --no-leader-only --timeout=30 init/);
        assert.equal(kubeManifests(kubeModel()).databases, undefined, "packages: no ovnkube-db");
    });

    it("centralized: only the node, against the central's databases", () => {
        for (const c of kubeManifests(kubeModel()).nodes.map(main)) {
            assert.equal(c.name, "ovnkube-node");
            for (const other of ["-init-ovnkube-controller", "-zone", "-enable-interconnect", "-cluster-manager-v4-transit-subnet"])
                assert.ok(!has(c, other), other);
            assert.equal(flag(c, "-nb-address"), "$(OVN_NORTH)");
            assert.equal(flag(c, "-sb-address"), "$(OVN_SOUTH)");
        }
    });
});

describe("ovnkube arguments", () => {
    for (const [architecture, model] of bothArchitectures()) {
        describe(architecture, () => {
            const ic = architecture === "interconnect";

            it("pass the API server, networks and MTU the same way to every role", () => {
                for (const c of roles(model)) {
                    assert.equal(flag(c, "-k8s-apiserver"), "$(K8S_APISERVER)", c.name);
                    // ovnkube's `<cidr>/<node subnet length>`, its only way to learn the node subnet size.
                    assert.equal(flag(c, "-cluster-subnets"), "$(OVN_NET_CIDR)/$(OVN_HOST_SUBNET_LENGTH)");
                    assert.equal(flag(c, "-k8s-service-cidrs"), "$(OVN_SVC_CIDR)");
                    assert.equal(flag(c, "-gateway-mode"), "shared");
                    assert.equal(flag(c, "-gateway-v4-join-subnet"), "100.64.0.0/16");
                    assert.equal(flag(c, "-gateway-v4-masquerade-subnet"), "169.254.0.0/17");
                    assert.equal(flag(c, "-mtu"), "$(MTU)");
                    assert.equal(has(c, "-enable-interconnect"), ic);
                    assert.equal(flag(c, "-cluster-manager-v4-transit-subnet"), ic ? "100.88.0.0/16" : undefined);
                }
            });

            it(
                model.identity
                    ? "give the nodes, and only them, the kubelet's kubeconfig to request their own certificate with"
                    : "pass no bootstrap kubeconfig without node identities",
                () => {
                    const [controlPlane, ...nodes] = roles(model);
                    for (const c of [controlPlane, ...nodes]) {
                        const node = c !== controlPlane;
                        assert.equal(flag(c, "-bootstrap-kubeconfig"), node ? model.identity?.bootstrapKubeconfig : undefined, c.name);
                        assert.equal(has(c, "-cert-dir"), node && model.identity !== undefined, c.name);
                    }
                },
            );

            it(ic ? "name no database: every zone uses its own unix sockets" : "pass the central's databases to every role", () => {
                for (const c of roles(model)) {
                    assert.equal(flag(c, "-nb-address"), ic ? undefined : "$(OVN_NORTH)", c.name);
                    assert.equal(flag(c, "-sb-address"), ic ? undefined : "$(OVN_SOUTH)", c.name);
                    const env = new Set(c.env?.map((e) => e.name));
                    assert.equal(env.has("OVN_NORTH") || env.has("OVN_SOUTH"), !ic, c.name);
                }
            });

            it("follow the model's join and masquerade subnets", () => {
                const other = bothArchitectures({ joinSubnets: ["100.70.0.0/16"], masqueradeSubnets: ["169.254.128.0/17"] }).find(
                    ([a]) => a === architecture,
                )![1];
                for (const c of roles(other)) {
                    assert.equal(flag(c, "-gateway-v4-join-subnet"), "100.70.0.0/16");
                    assert.equal(flag(c, "-gateway-v4-masquerade-subnet"), "169.254.128.0/17");
                }
            });

            it("leave optional flags out when ovn-config lacks their keys", () => {
                const config = { ...model.config };
                delete config.mtu;
                delete config.host_subnet_length;
                delete config.encap_type;
                const c = main(kubeManifests({ ...model, config }).nodes[0]);
                assert.ok(!has(c, "-mtu"));
                assert.ok(!has(c, "-encap-type"));
                assert.equal(flag(c, "-cluster-subnets"), "$(OVN_NET_CIDR)");
                const databases = ic ? [] : ["OVN_NORTH", "OVN_SOUTH"];
                assert.deepEqual(
                    c.env?.map((e) => e.name),
                    ["K8S_NODE", "K8S_NODE_IP", ...databases, "K8S_APISERVER", "OVN_NET_CIDR", "OVN_SVC_CIDR"],
                );
            });

            it("carry no credentials: ovnkube reads the service account's token and CA from the pod's mount itself", () => {
                for (const insecure of [false, true]) {
                    const m = insecure
                        ? { ...model, secureApi: false, config: { ...model.config, k8s_apiserver: "http://10.19.188.22:8080" } }
                        : model;
                    for (const c of roles(m)) {
                        for (const credential of ["-k8s-token", "-k8s-token-file", "-k8s-cacert", "-k8s-kubeconfig"])
                            assert.ok(!has(c, credential), `${c.name}: ${credential}`);
                        assert.ok(!(c.args ?? []).some((a) => a.includes("/var/run/secrets/")), c.name);
                    }
                }
            });
        });
    }

    it("centralized: present the host's OVN client SSL files to ssl: databases, with the address as the name to verify", () => {
        const ssl = kubeModel({ config: { ...kubeModel().config, OvnNorth: "ssl:10.0.0.5:6641", OvnSouth: "ssl:10.0.0.5:6642" } });
        const m = kubeManifests(ssl);
        for (const c of roles(ssl)) {
            for (const db of ["nb", "sb"]) {
                assert.equal(flag(c, `-${db}-client-privkey`), "/etc/openvswitch/ovn-controller-privkey.pem");
                assert.equal(flag(c, `-${db}-client-cert`), "/etc/openvswitch/ovn-controller-cert.pem");
                assert.equal(flag(c, `-${db}-client-cacert`), "/etc/openvswitch/ovn-controller-cacert.pem");
                assert.equal(flag(c, `-${db}-cert-common-name`), "10.0.0.5");
            }
        }
        assert.deepEqual(hostMounts(m.controlPlane, main(m.controlPlane)).get("/etc/openvswitch"), {
            host: "/etc/openvswitch",
            readOnly: true,
            propagation: undefined,
        });
        for (const model of [kubeModel(), interconnectModel()]) {
            assert.ok(!has(main(kubeManifests(model).controlPlane), "-nb-client-privkey"));
            assert.ok(!has(main(kubeManifests(model).controlPlane), "-nb-cert-common-name"));
        }
    });

    it("name the server to verify after the host of the first remote, IPv6 without brackets", () => {
        assert.equal(remoteHost("ssl:10.0.0.5:6641"), "10.0.0.5");
        assert.equal(remoteHost("ssl:central.example.com:6642,ssl:10.0.0.6:6642"), "central.example.com");
        assert.equal(remoteHost("ssl:[fd00::5]:6641"), "fd00::5");
    });
});
