// The patterns every value reaching an OVSDB operation or the SSH layer is checked against: the
// shared table (../model/patterns.ts). The model is validated already; `check` applies them again
// because a dynamic resource can be given any object, and a value with a quote, space, bracket or
// shell character has no business in NB.
import { PATTERNS, type Pattern } from "../model/patterns";

export type Rule = Pattern;

/** The table's patterns under the names the NB inputs use. */
export const RULES = {
    ovnName: PATTERNS.ovnName,
    nodeName: PATTERNS.nodeName,
    ipv4: PATTERNS.ipv4,
    cidr: PATTERNS.cidr,
    mac: PATTERNS.mac,
    systemId: PATTERNS.systemId,
    owner: PATTERNS.owner,
    sshHost: PATTERNS.host,
    sshUser: PATTERNS.sshUser,
    socket: PATTERNS.socket,
} as const;

export type RuleName = keyof typeof RULES;
