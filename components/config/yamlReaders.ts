// The Pulumi CLI reads a stack file with go-yaml v3 (gopkg.in/yaml.v3 v3.0.1: pulumi/pulumi
// sdk/go/common/encoding/marshal.go:27, config values decoded into `any` by
// sdk/go/common/resource/config/object.go:455-490) and hands the program what it read; `npm run
// validate` reads the same file with the `yaml` package (YAML 1.2 core schema). Where the two read a
// plain scalar differently, the stack validate accepted is not the one that runs. go-yaml's
// rules (resolve.go at v3.0.1): a scalar starting with a digit or sign is tried as a timestamp
// (:182-189, formats :294-300), then, with every `_` removed, as strconv.ParseInt(s, 0, 64), which
// reads 0x, 0o, 0b and a leading 0 (octal) with a sign (:191-199), then as a float (:124, :204-209);
// a `<<` key merges a mapping (decode.go:241, :998). `yes`, `on`, `no`, `off` are booleans to go-yaml
// only when decoding into a bool (decode.go:687); into `any`, as here, they stay strings, as in
// `yaml`. docs/validation.md.
import { isMap, isScalar, isSeq, LineCounter, Scalar, type Document, type Node } from "yaml";
import type { Problem } from "./problem";

/** go-yaml's yamlStyleFloat (resolve.go:124). */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** strconv.ParseInt(s, 0, 64)'s syntax: a sign, then 0x / 0o / 0b digits, 0 and octal digits, or decimal. */
const GO_INT = /^([+-]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)|0[bB]([01]+)|0([0-7]*)|([1-9][0-9]*))$/;
/** The timestamp layouts go-yaml tries, for a scalar starting with four digits and `-`. */
const GO_TIMESTAMP =
    /^\d{4}-\d{1,2}-\d{1,2}(?:[Tt]\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})|[ ]\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?)?$/;

/** What go-yaml makes of a plain scalar that starts with a digit or sign: a number, a timestamp, or (undefined) text. */
function goYamlValue(text: string): { number: number; why: string } | { timestamp: true } | undefined {
    if (GO_TIMESTAMP.test(text)) return { timestamp: true };
    const plain = text.replace(/_/g, "");
    const why = plain !== text ? "go-yaml drops the _ in numbers" : "";
    const m = GO_INT.exec(plain);
    if (m) {
        const [, sign, hex, oct, bin, zeroOct, dec] = m;
        const [digits, base, reason] =
            hex !== undefined
                ? [hex, 16, "a signed hexadecimal number"]
                : oct !== undefined
                  ? [oct, 8, "a signed 0o octal number"]
                  : bin !== undefined
                    ? [bin, 2, "a 0b binary number"]
                    : zeroOct
                      ? [zeroOct, 8, "a leading 0 makes it octal"]
                      : [dec ?? "0", 10, ""];
        const n = parseInt(digits, base) * (sign === "-" ? -1 : 1);
        return { number: n, why: [why, reason].filter(Boolean).join("; ") };
    }
    if (YAML_STYLE_FLOAT.test(plain)) return { number: Number(plain), why };
    return undefined;
}

/** How the two readers read a plain scalar differently, if they do: go-yaml's reading, ours (`yaml`'s `value`), and what to write. */
export interface Disagreement {
    go: string;
    ours: string;
    fix: string;
}

const QUOTE = `quote it ("…") if it is text`;

export function readerDisagreement(text: string, value: unknown): Disagreement | undefined {
    if (!/^[0-9+-]/.test(text)) return undefined;
    const ours = JSON.stringify(value);
    const go = goYamlValue(text);
    if (go === undefined)
        return typeof value === "string" ? undefined : { go: "text", ours, fix: `write it as a plain decimal number, or ${QUOTE}` };
    if ("timestamp" in go) return { go: `a timestamp, passed on reformatted ("… 00:00:00 +0000 UTC")`, ours, fix: QUOTE };
    if (value === go.number) return undefined;
    return { go: `${go.number}${go.why ? ` (${go.why})` : ""}`, ours, fix: `write the number you mean in plain decimal, or ${QUOTE}` };
}

type Segment = string | number;
const pathText = (segs: Segment[]): string =>
    segs.reduce<string>((acc, s) => (typeof s === "number" ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), "");

/**
 * Every plain scalar under the stack file's `config:` whose reading differs between the Pulumi CLI
 * and this program, at the config path `configKey` gives a top-level key (undefined: not the project's).
 * `secret` paths are named without their value.
 */
export function yamlReaderProblems(
    doc: Document,
    lines: LineCounter,
    configKey: (key: string) => string | undefined,
    secret: (path: string) => boolean,
): Problem[] {
    const problems: Problem[] = [];
    const lineOf = (n: Node) => (n.range ? lines.linePos(n.range[0]).line : 0);
    const check = (node: unknown, segs: Segment[], what: string) => {
        if (!isScalar(node) || node.type !== Scalar.PLAIN || node.source === undefined) return;
        const d = readerDisagreement(node.source, node.value);
        if (d === undefined) return;
        const path = pathText(segs);
        // A secret's readings are its value: named, never shown.
        const readings = secret(path)
            ? "is read as one value by the Pulumi CLI (go-yaml) and as another by this program"
            : `\`${node.source}\` is ${d.go} to the Pulumi CLI (go-yaml) and ${d.ours} to this program`;
        problems.push({ path, message: `line ${lineOf(node)}: ${what} ${readings}; ${d.fix}` });
    };
    const walk = (node: unknown, segs: Segment[]) => {
        if (isMap(node))
            for (const pair of node.items) {
                const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
                if (isScalar(pair.key) && pair.key.source === "<<" && pair.key.type === Scalar.PLAIN) {
                    problems.push({
                        path: pathText(segs),
                        message: `line ${lineOf(pair.key)}: a \`<<\` key merges a mapping for the Pulumi CLI (go-yaml), but is a key named "<<" for this program; write the settings out`,
                    });
                    continue;
                }
                check(pair.key, [...segs, key], "the key");
                check(pair.value, [...segs, key], "the value");
                walk(pair.value, [...segs, key]);
            }
        else if (isSeq(node)) node.items.forEach((item, i) => (check(item, [...segs, i], "the value"), walk(item, [...segs, i])));
    };
    const root = doc.contents;
    if (!isMap(root)) return problems;
    const config = root.items.find((p) => isScalar(p.key) && p.key.value === "config")?.value;
    if (!isMap(config)) return problems;
    for (const pair of config.items) {
        const key = configKey(isScalar(pair.key) ? String(pair.key.value) : "");
        if (key === undefined) continue;
        check(pair.value, [key], "the value");
        walk(pair.value, [key]);
    }
    return problems;
}
