// NorthboundExpectation, pure parts: the row-key grammar and column paths (each error names its
// property path), normalization, the reads it plans, the projection of live rows onto the
// expected cells, the difference lines, the settle loop and diff.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UNKNOWN } from "../../components/nb/core/check";
import { checkExpectation, DEFAULT_SETTLE } from "../../components/nb/expectation/expectationInputs";
import { mismatches, mismatchLine, notRealised, observe } from "../../components/nb/expectation/observe";
import { settle } from "../../components/nb/expectation/observeNb";
import { expectationProvider } from "../../components/nb/expectation/expectationProvider";
import { matchRows, parseExpectation, readPlan } from "../../components/nb/expectation/reading";
import { parseRowKey } from "../../components/nb/core/rowKeys";
import { NO_KEY, NO_ROW, type Cells } from "../../components/nb/expectation/cells";
import { devModel } from "../../lab/harness/env";
import { TEST_KEY } from "../nb/support/inputs";

const nb = { ssh: { host: "127.0.0.1", port: 2222, user: "root", hostKey: devModel().hosts[0].ssh.hostKey! }, privateKey: TEST_KEY };
const ROWS: Cells = {
    "Logical_Switch node2": { "other_config:subnet": "10.128.5.0/24" },
    "Logical_Router_Port rtoj-GR_node2": { networks: ["100.64.0.2/16"], mac: "0A:58:64:40:00:02" },
    "Logical_Router GR_node2": { "options:chassis": "5c1e1b4f-0d3c-4c5e-9b7e-3d2f1a0b9c8d", "options:lb_force_snat_ip": "router_ip" },
    "NAT GR_node2 snat 10.128.0.0/14": { external_ip: "172.18.0.3" },
    "Logical_Router_Static_Route GR_node2 10.128.0.0/14 100.64.0.1": { policy: [] },
};
const base = () => JSON.parse(JSON.stringify({ nb, subject: "node/node2", rows: ROWS }));

function failuresOf(change: (i: any) => void) {
    const news = base();
    change(news);
    return checkExpectation(news).failures;
}

describe("row keys", () => {
    it("name OVN rows by table and name, NAT rows and routes by router and what tells them apart", () => {
        assert.deepEqual(parseRowKey("Logical_Switch_Port k8s-node2"), { table: "Logical_Switch_Port", name: "k8s-node2" });
        assert.deepEqual(parseRowKey("NAT GR_node2 dnat_and_snat 10.128.5.7"), {
            table: "NAT",
            router: "GR_node2",
            type: "dnat_and_snat",
            logicalIp: "10.128.5.7",
        });
        assert.deepEqual(parseRowKey("Logical_Router_Static_Route ovn_cluster_router 0.0.0.0/0 100.64.0.2"), {
            table: "Logical_Router_Static_Route",
            router: "ovn_cluster_router",
            ipPrefix: "0.0.0.0/0",
            nexthop: "100.64.0.2",
        });
    });

    const BAD: [string, RegExp][] = [
        ["Logical_Swich node2", /must start with a table: one of "Logical_Switch <name>"/],
        ["Logical_Switch", /must be "Logical_Switch <name>" \(one space between words\), e.g. "Logical_Switch node2"/],
        ["Logical_Switch  node2", /one space between words/],
        ["Logical_Router GR_$(id)", /the name must be an OVN name/],
        ["NAT GR_node2 snat", /must be "NAT <router> <snat\|dnat\|dnat_and_snat> <logical_ip>"/],
        ["NAT GR_node2 masquerade 10.0.0.0/8", /the NAT type must be one of snat, dnat, dnat_and_snat, got "masquerade"/],
        ["NAT GR_node2 snat 10.0.0.0/33", /the logical_ip must be an IPv4 or IPv6 address or an IPv4 or IPv6 CIDR/],
        ["NAT GR_node2 snat fd00:10::/129", /the logical_ip must be an IPv4 or IPv6 address/],
        ["Logical_Router_Static_Route GR_node2 0.0.0.0/0 gw", /the nexthop must be an IPv4 address \(a.b.c.d\), got "gw"/],
    ];
    for (const [key, reason] of BAD) {
        it(`check refuses ${JSON.stringify(key)} under its own path`, () => {
            const failures = failuresOf((i) => (i.rows[key] = { name: "x" }));
            assert.deepEqual(
                failures.map((f) => f.property),
                [`rows[${JSON.stringify(key)}]`],
            );
            assert.match(failures[0].reason, reason);
        });
    }
});

describe("check", () => {
    it("accepts the example and normalizes it: sets sorted, one-element sets as their atom, MACs lower-case, settle defaults", () => {
        const news = base();
        news.rows["Logical_Switch_Port k8s-node2"] = { addresses: ["0A:58:0A:80:05:02 10.128.5.2"], port_security: ["b", "a"] };
        const { inputs, failures } = checkExpectation(news);
        assert.deepEqual(failures, []);
        const rows = inputs.rows as Cells;
        assert.equal(rows["Logical_Router_Port rtoj-GR_node2"].networks, "100.64.0.2/16");
        assert.equal(rows["Logical_Router_Port rtoj-GR_node2"].mac, "0a:58:64:40:00:02");
        assert.equal(rows["Logical_Switch_Port k8s-node2"].addresses, "0a:58:0a:80:05:02 10.128.5.2");
        assert.deepEqual(rows["Logical_Switch_Port k8s-node2"].port_security, ["a", "b"]);
        assert.deepEqual(rows["Logical_Router_Static_Route GR_node2 10.128.0.0/14 100.64.0.1"].policy, []);
        assert.deepEqual(inputs.settle, DEFAULT_SETTLE);
        assert.equal((inputs.nb as any).socket, "/var/run/ovn/ovnnb_db.sock");
    });

    const CASES: [string, (i: any) => void, string, RegExp][] = [
        [
            "a map column without a key",
            (i) => (i.rows["Logical_Switch node2"] = { other_config: "x" }),
            'rows["Logical_Switch node2"]["other_config"]',
            /map column: name one key, as "other_config:<key>"/,
        ],
        [
            "a key on a plain column",
            (i) => (i.rows["Logical_Router_Port rtoj-GR_node2"]["networks:x"] = "y"),
            'rows["Logical_Router_Port rtoj-GR_node2"]["networks:x"]',
            /networks is not a map column of Logical_Router_Port/,
        ],
        [
            "a column the table does not have",
            (i) => (i.rows["Logical_Switch node2"].subnet = "x"),
            'rows["Logical_Switch node2"]["subnet"]',
            /Logical_Switch has no column "subnet" that can be expected; one of: name, external_ids:<key>, other_config:<key>/,
        ],
        [
            "a reference column",
            (i) => (i.rows["Logical_Router GR_node2"].nat = []),
            'rows["Logical_Router GR_node2"]["nat"]',
            /has no column "nat"/,
        ],
        [
            "a map key with a quote",
            (i) => (i.rows["Logical_Switch node2"]['other_config:"x"'] = "y"),
            `rows["Logical_Switch node2"]["other_config:\\"x\\""]`,
            /the key after "other_config:" must be/,
        ],
        [
            "a number as value",
            (i) => (i.rows["Logical_Router_Port rtoj-GR_node2"].mac = 5),
            'rows["Logical_Router_Port rtoj-GR_node2"]["mac"]',
            /must be a string or a list of strings/,
        ],
        [
            "a control character in a value",
            (i) => (i.rows["Logical_Router_Port rtoj-GR_node2"].mac = "a\nb"),
            'rows["Logical_Router_Port rtoj-GR_node2"]["mac"]',
            /without control characters/,
        ],
        [
            "an absent key on a plain column",
            (i) => (i.rows["Logical_Router_Port rtoj-GR_node2"].mac = NO_KEY),
            'rows["Logical_Router_Port rtoj-GR_node2"]["mac"]',
            /only applies to a map key/,
        ],
        [
            "a row absent in one column and present in another",
            (i) => (i.rows["Logical_Router_Port rtoj-GR_node2"].mac = NO_ROW),
            'rows["Logical_Router_Port rtoj-GR_node2"]',
            /for every column or for none/,
        ],
        ["a row without columns", (i) => (i.rows["Logical_Switch node3"] = {}), 'rows["Logical_Switch node3"]', /at least one column path/],
        ["no rows", (i) => (i.rows = {}), "rows", /at least one row key/],
        ["a subject with a space", (i) => (i.subject = "node/node 2"), "subject", /e\.g\. "node\/node2"/],
        ["a settle timeout out of range", (i) => (i.settle = { timeoutSeconds: -1 }), "settle.timeoutSeconds", /from 0 to 3600, got -1/],
        ["a settle interval of zero", (i) => (i.settle = { intervalSeconds: 0 }), "settle.intervalSeconds", /from 0\.05 to 300/],
        ["a misspelt settle field", (i) => (i.settle = { timeout: 5 }), "settle.timeout", /use timeoutSeconds and intervalSeconds/],
        ["settle not an object", (i) => (i.settle = 5), "settle", /must be \{ timeoutSeconds, intervalSeconds \}/],
        ["SSH port out of range", (i) => (i.nb.ssh.port = 70000), "nb.ssh.port", /from 1 to 65535/],
        ["no NB connection", (i) => delete i.nb, "nb", /is required/],
    ];
    for (const [what, change, property, reason] of CASES) {
        it(`reports ${what} under ${property}`, () => {
            const failures = failuresOf(change);
            assert.deepEqual(
                failures.map((f) => f.property),
                [property],
            );
            assert.match(failures[0].reason, reason);
        });
    }

    it("reports every failure at once and never quotes the private key", () => {
        const failures = failuresOf((i) => {
            i.subject = "";
            i.nb.privateKey = "not a key but a secret";
            i.rows["Logical_Router GR_node2"].nat = [];
        });
        assert.deepEqual(failures.map((f) => f.property).sort(), ["nb.privateKey", 'rows["Logical_Router GR_node2"]["nat"]', "subject"]);
        assert.ok(!JSON.stringify(failures).includes("but a secret"));
    });

    it("leaves values unknown at preview unchecked", () => {
        assert.deepEqual(
            failuresOf((i) => (i.rows = UNKNOWN)),
            [],
        );
        assert.deepEqual(
            failuresOf((i) => (i.rows["Logical_Switch node2"]["other_config:subnet"] = UNKNOWN)),
            [],
        );
        assert.deepEqual(
            failuresOf((i) => (i.nb = UNKNOWN)),
            [],
        );
    });
});

describe("reading and projection", () => {
    const plan = readPlan(parseExpectation(checkExpectation(base()).inputs.rows as Cells));

    it("plans one select per expected row, narrowed to its columns, and one per router of NAT rows and routes", () => {
        assert.deepEqual(plan.ops, [
            { op: "select", table: "Logical_Switch", where: [["name", "==", "node2"]], columns: ["other_config"] },
            { op: "select", table: "Logical_Router_Port", where: [["name", "==", "rtoj-GR_node2"]], columns: ["mac", "networks"] },
            { op: "select", table: "Logical_Router", where: [["name", "==", "GR_node2"]], columns: ["options"] },
            {
                op: "select",
                table: "NAT",
                where: [
                    ["type", "==", "snat"],
                    ["logical_ip", "==", "10.128.0.0/14"],
                ],
                columns: ["_uuid", "external_ip"],
            },
            {
                op: "select",
                table: "Logical_Router_Static_Route",
                where: [
                    ["ip_prefix", "==", "10.128.0.0/14"],
                    ["nexthop", "==", "100.64.0.1"],
                ],
                columns: ["_uuid", "policy"],
            },
            { op: "select", table: "Logical_Router", where: [["name", "==", "GR_node2"]], columns: ["nat", "static_routes"] },
        ]);
    });

    const U = (n: number) => ["uuid", `00000000-0000-4000-8000-00000000000${n}`] as ["uuid", string];
    // As ovsdb-server answers: one-element sets bare, maps tagged, other routers' NAT rows included.
    const results = [
        {
            rows: [
                {
                    other_config: [
                        "map",
                        [
                            ["subnet", "10.128.7.0/24"],
                            ["mcast_snoop", "true"],
                        ],
                    ],
                },
            ],
        },
        { rows: [{ mac: "0a:58:64:40:00:02", networks: "100.64.0.2/16" }] },
        { rows: [{ options: ["map", [["lb_force_snat_ip", "router_ip"]]] }] },
        {
            rows: [
                { _uuid: U(1), external_ip: "172.18.0.3" },
                { _uuid: U(2), external_ip: "172.18.0.4" },
            ],
        },
        { rows: [] },
        { rows: [{ nat: U(1), static_routes: ["set", []] }] },
    ] as any;

    it("observes exactly the expected cells: a NAT row by its router, absent rows and keys as markers", () => {
        const observed = observe(plan.rows, matchRows(plan, results));
        assert.deepEqual(observed, {
            "Logical_Switch node2": { "other_config:subnet": "10.128.7.0/24" },
            "Logical_Router_Port rtoj-GR_node2": { networks: "100.64.0.2/16", mac: "0a:58:64:40:00:02" },
            "Logical_Router GR_node2": { "options:chassis": NO_KEY, "options:lb_force_snat_ip": "router_ip" },
            "NAT GR_node2 snat 10.128.0.0/14": { external_ip: "172.18.0.3" },
            "Logical_Router_Static_Route GR_node2 10.128.0.0/14 100.64.0.1": { policy: NO_ROW },
        });
    });

    it("a name held by several rows is observed as ambiguous; sets, integers and booleans render as ovn-nbctl prints them", () => {
        const p = readPlan(
            parseExpectation({
                "Logical_Switch dup": { name: "dup" },
                "Logical_Switch_Port p": { tag: "7", up: "true", addresses: ["x"], port_security: [] },
            }),
        );
        const observed = observe(
            p.rows,
            matchRows(p, [
                { rows: [{ name: "dup" }, { name: "dup" }] },
                { rows: [{ tag: 7, up: ["set", [true]], addresses: ["set", ["b", "A"]], port_security: ["set", []] }] },
            ] as any),
        );
        assert.deepEqual(observed, {
            "Logical_Switch dup": { name: "<2 rows>" },
            "Logical_Switch_Port p": { tag: "7", up: "true", addresses: ["A", "b"], port_security: [] },
        });
    });

    it("names every difference by row, column, expected and observed value, and says who owns the rows", () => {
        const expected = checkExpectation(base()).inputs.rows as Cells;
        const list = mismatches(expected, observe(plan.rows, matchRows(plan, results)));
        assert.deepEqual(list.map(mismatchLine), [
            'Logical_Switch node2 other_config:subnet: expected "10.128.5.0/24", observed "10.128.7.0/24"',
            'Logical_Router GR_node2 options:chassis: expected "5c1e1b4f-0d3c-4c5e-9b7e-3d2f1a0b9c8d", observed "<no key>"',
            'Logical_Router_Static_Route GR_node2 10.128.0.0/14 100.64.0.1 policy: expected [], observed "<no row>"',
        ]);
        const text = notRealised("NorthboundExpectation", "node/node2", 30, list);
        assert.match(
            text,
            /^NorthboundExpectation node\/node2: after 30 s the Northbound database still differs from the plan in 3 places:\n {2}Logical_Switch node2 /,
        );
        assert.match(text, /ovnkube owns these rows .*k8s\.ovn\.org\/node-subnets.*logs of ovnkube-master and ovnkube-node/);
    });
});

describe("settle and diff", () => {
    const expected: Cells = { "Logical_Switch node2": { name: "node2" } };
    const absent: Cells = { "Logical_Switch node2": { name: NO_ROW } };

    it("reads again until the rows are as planned", async () => {
        let reads = 0;
        const result = await settle(async () => (++reads < 3 ? absent : expected), expected, { timeoutSeconds: 10, intervalSeconds: 0.05 });
        assert.equal(reads, 3);
        assert.deepEqual(result.differences, []);
        assert.deepEqual(result.observed, expected);
    });

    it("gives up at the timeout with the last differences, having read at the deadline", async () => {
        let reads = 0;
        const result = await settle(async () => (reads++, absent), expected, { timeoutSeconds: 0.3, intervalSeconds: 0.1 });
        assert.ok(result.waitedMs >= 300, `waited ${result.waitedMs} ms`);
        assert.ok(reads >= 2 && reads <= 5, `${reads} reads, one per interval at most`);
        assert.deepEqual(result.differences, [{ row: "Logical_Switch node2", column: "name", expected: "node2", observed: NO_ROW }]);
    });

    it("waits out a database that does not answer yet while retry says so, and throws the last failure at the deadline", async () => {
        const down = Object.assign(new Error(""), { name: "OvsdbError", error: "No such file or directory" });
        let reads = 0;
        const result = await settle(
            async () => {
                if (++reads < 3) throw down;
                return expected;
            },
            expected,
            { timeoutSeconds: 10, intervalSeconds: 0.05 },
            (err) => (err as Error).name === "OvsdbError",
        );
        assert.equal(reads, 3);
        assert.deepEqual(result.differences, []);
        reads = 0;
        const never = settle(
            async () => (reads++, Promise.reject(down)),
            expected,
            { timeoutSeconds: 0.2, intervalSeconds: 0.05 },
            () => true,
        );
        await assert.rejects(never, (err) => err === down);
        assert.ok(reads >= 2, `${reads} reads`);
        // Without retry (a refused host key, say) the first failure is thrown at once.
        reads = 0;
        await assert.rejects(settle(async () => (reads++, Promise.reject(down)), expected, { timeoutSeconds: 10, intervalSeconds: 0.05 }));
        assert.equal(reads, 1);
    });

    it("a timeout of 0 looks once", async () => {
        let reads = 0;
        await settle(async () => (reads++, absent), expected, { timeoutSeconds: 0, intervalSeconds: 1 });
        assert.equal(reads, 1);
    });

    it("diff: a difference from the recorded (observed) rows is left to the engine's diff of the inputs; a new subject replaces", async () => {
        const diff = expectationProvider().diff!;
        const inputs = checkExpectation({ nb, subject: "node/node2", rows: expected }).inputs;
        const toEngine = { changes: undefined, replaces: [], deleteBeforeReplace: false };
        assert.deepEqual(await diff("node/node2", { ...inputs, __provider: "x" }, inputs), {
            changes: false,
            replaces: [],
            deleteBeforeReplace: false,
        });
        assert.deepEqual(await diff("node/node2", { ...inputs, rows: absent }, inputs), toEngine);
        assert.deepEqual(await diff("node/node2", inputs, { ...inputs, settle: { timeoutSeconds: 5 } }), toEngine);
        assert.deepEqual(await diff("node/node2", inputs, { ...inputs, subject: "node/node3" }), {
            changes: true,
            replaces: ["subject"],
            deleteBeforeReplace: true,
        });
        assert.deepEqual(await diff("node/node2", inputs, { ...inputs, rows: UNKNOWN }), toEngine);
    });
});
