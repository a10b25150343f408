// Kubernetes' `$(VAR)` expansion, as the kubelet applies it to env values, command, args and
// subPathExpr (k8s.io/kubernetes third_party/forked/golang/expansion). Rules: `$(NAME)` becomes
// the variable's value; `$$` becomes `$` (so `$$(NAME)` stays literally `$(NAME)`); a reference
// to an unknown variable, an unclosed `$(` and a `$` before any other character stay as written.

/** Looks a name up; undefined means "not defined", which leaves the reference as written. */
export type Lookup = (name: string) => string | undefined;

/** A lookup over maps searched in order: the first that defines the name wins. */
export function lookupIn(...maps: ReadonlyArray<ReadonlyMap<string, string>>): Lookup {
    return (name) => {
        for (const m of maps) {
            const v = m.get(name);
            if (v !== undefined) return v;
        }
        return undefined;
    };
}

export function expand(input: string, lookup: Lookup): string {
    let out = "";
    let checkpoint = 0;
    for (let cursor = 0; cursor < input.length; cursor++) {
        if (input[cursor] !== "$" || cursor + 1 >= input.length) continue;
        out += input.slice(checkpoint, cursor);
        const next = input[cursor + 1];
        if (next === "$") {
            out += "$";
            cursor += 1;
        } else if (next === "(") {
            const close = input.indexOf(")", cursor + 2);
            if (close < 0) {
                // Unclosed: keep "$(" and carry on scanning after it, as upstream does.
                out += "$(";
                cursor += 1;
            } else {
                const name = input.slice(cursor + 2, close);
                out += lookup(name) ?? `$(${name})`;
                cursor = close;
            }
        } else {
            out += "$" + next;
            cursor += 1;
        }
        checkpoint = cursor + 1;
    }
    return out + input.slice(checkpoint);
}
