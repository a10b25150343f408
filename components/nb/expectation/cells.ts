// Values as an expectation states them and as NB is observed, in one canonical form so that
// "as planned" is plain equality: sets sorted, a one-element set equal to its atom (as OVSDB and
// ovn-nbctl render it), MAC addresses lower-case (OVN reads them case-insensitively, ovnkube
// writes them lower-case). Addresses with a prefix stay as written (`100.64.0.2/16` is an
// interface address, not a network to normalize). Rows or map keys that are not there are
// observed as markers, so a difference always names the row and the column.
import { mapPairs, setAtoms, type Atom, type Value } from "../../ovsdb/encoding";

/** An expected or observed cell: an atom, or a set of atoms (sorted, never of one element). */
export type Cell = string | string[];
/** Row key → column path → cell. */
export type Cells = Record<string, Record<string, Cell>>;

/** Observed for every column of an expected row that NB does not hold. */
export const NO_ROW = "<no row>";
/** Observed for a map key the row does not have (`other_config:subnet` unset). */
export const NO_KEY = "<no key>";
/** Observed for every column of an expected row whose identity matches several rows. */
export const severalRows = (count: number) => `<${count} rows>`;

const MAC = /\b[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}\b/g;

const atomCell = (text: string) => text.replace(MAC, (mac) => mac.toLowerCase());

export function canonicalCell(value: Cell): Cell {
    if (typeof value === "string") return atomCell(value);
    const atoms = [...new Set(value.map(atomCell))].sort();
    return atoms.length === 1 ? atoms[0] : atoms;
}

/** Atoms as ovn-nbctl prints them: strings bare, integers and booleans as their JSON text. */
const atomText = (atom: Atom) => (typeof atom === "string" ? atom : Array.isArray(atom) ? atom[1] : JSON.stringify(atom));

/** A live column, or one key of a live map column, as a canonical cell. */
export function liveCell(value: Value | undefined, mapKey?: string): Cell {
    if (mapKey === undefined) return canonicalCell(setAtoms(value).map(atomText));
    const pair = mapPairs(value).find(([k]) => atomText(k) === mapKey);
    return pair === undefined ? NO_KEY : canonicalCell(atomText(pair[1]));
}
