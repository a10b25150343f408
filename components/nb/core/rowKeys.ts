// The grammar of an expectation's row keys: readable names of OVN Northbound rows, the way an
// operator says them. Named tables by name (`Logical_Switch node2`, `Logical_Router_Port
// rtos-node2`); NAT rows and static routes have no name, so they are named by their router and
// what tells them apart there, in the order ovn-nbctl's lr-nat-add and lr-route-add take them:
// `NAT GR_node2 snat 10.128.0.0/14`, `Logical_Router_Static_Route GR_node2 10.128.0.0/14 100.64.0.1`.
import { PATTERNS } from "../../values";

export type NamedTable = "Logical_Switch" | "Logical_Switch_Port" | "Logical_Router" | "Logical_Router_Port";
export type NatType = "snat" | "dnat" | "dnat_and_snat";

export type RowKey =
    | { table: NamedTable; name: string }
    | { table: "NAT"; router: string; type: NatType; logicalIp: string }
    | { table: "Logical_Router_Static_Route"; router: string; ipPrefix: string; nexthop: string };

export type ExpectTable = RowKey["table"];

const NAMED: readonly NamedTable[] = ["Logical_Switch", "Logical_Switch_Port", "Logical_Router", "Logical_Router_Port"];
const NAT_TYPES: readonly NatType[] = ["snat", "dnat", "dnat_and_snat"];

const NAT_FORM = "NAT <router> <snat|dnat|dnat_and_snat> <logical_ip>";
const ROUTE_FORM = "Logical_Router_Static_Route <router> <ip_prefix> <nexthop>";
/** What each kind of key looks like, for error messages. */
export const ROW_KEY_FORMS: readonly string[] = [...NAMED.map((t) => `${t} <name>`), NAT_FORM, ROUTE_FORM];

const matches = (rule: keyof typeof PATTERNS, text: string) => PATTERNS[rule].re.test(text);

function name(what: string, text: string): string {
    if (!matches("ovnName", text)) throw new Error(`${what} must be ${PATTERNS.ovnName.what}, got ${JSON.stringify(text)}`);
    return text;
}

function address(what: string, text: string, forms: readonly ("ipv4" | "cidr" | "ip" | "ipCidr")[]): string {
    if (!forms.some((f) => matches(f, text)))
        throw new Error(`${what} must be ${forms.map((f) => PATTERNS[f].what).join(" or ")}, got ${JSON.stringify(text)}`);
    return text;
}

/** Parses a row key; throws an Error whose message says what is wrong and what a key looks like. */
export function parseRowKey(text: string): RowKey {
    const words = text.split(" ");
    const [table, ...rest] = words;
    const shape = (form: string, example: string) => new Error(`must be "${form}" (one space between words), e.g. "${example}"`);
    if ((NAMED as readonly string[]).includes(table)) {
        if (rest.length !== 1) throw shape(`${table} <name>`, `${table} node2`);
        return { table: table as NamedTable, name: name("the name", rest[0]) };
    }
    if (table === "NAT") {
        if (rest.length !== 3) throw shape(NAT_FORM, "NAT GR_node2 snat 10.128.0.0/14");
        const [router, type, logicalIp] = rest;
        if (!(NAT_TYPES as readonly string[]).includes(type))
            throw new Error(`the NAT type must be one of ${NAT_TYPES.join(", ")}, got ${JSON.stringify(type)}`);
        return {
            table,
            router: name("the router", router),
            type: type as NatType,
            // ovnkube SNATs each family of the pod network apart (dual stack).
            logicalIp: address("the logical_ip", logicalIp, ["ip", "ipCidr"]),
        };
    }
    if (table === "Logical_Router_Static_Route") {
        if (rest.length !== 3) throw shape(ROUTE_FORM, "Logical_Router_Static_Route GR_node2 10.128.0.0/14 100.64.0.1");
        const [router, ipPrefix, nexthop] = rest;
        return {
            table,
            router: name("the router", router),
            ipPrefix: address("the ip_prefix", ipPrefix, ["cidr", "ipv4"]),
            nexthop: address("the nexthop", nexthop, ["ipv4"]),
        };
    }
    throw new Error(`must start with a table: one of ${ROW_KEY_FORMS.map((f) => `"${f}"`).join(", ")}`);
}

/** The text of a row key, as parseRowKey reads it. */
export function formatRowKey(key: RowKey): string {
    if (key.table === "NAT") return `NAT ${key.router} ${key.type} ${key.logicalIp}`;
    if (key.table === "Logical_Router_Static_Route") return `Logical_Router_Static_Route ${key.router} ${key.ipPrefix} ${key.nexthop}`;
    return `${key.table} ${key.name}`;
}
