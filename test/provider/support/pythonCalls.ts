// What a Python program calls, read by Python's own parser: each call's dotted name with its
// keyword names, and each dotted attribute (e.g. an enum member), for checking the Python example
// against the package schema.
import { execFileSync } from "node:child_process";

const READER = `
import ast, json, sys
tree = ast.parse(open(sys.argv[1]).read())
dotted = lambda n: dotted(n.value) + "." + n.attr if isinstance(n, ast.Attribute) else (n.id if isinstance(n, ast.Name) else "?")
calls = [{"name": dotted(n.func), "keywords": [k.arg for k in n.keywords if k.arg]} for n in ast.walk(tree) if isinstance(n, ast.Call)]
attributes = sorted({dotted(n) for n in ast.walk(tree) if isinstance(n, ast.Attribute)})
print(json.dumps({"calls": calls, "attributes": attributes}))
`;

export interface PythonCalls {
    calls: { name: string; keywords: string[] }[];
    attributes: string[];
}

export const pythonCalls = (file: string): PythonCalls => JSON.parse(execFileSync("python3", ["-c", READER, file], { encoding: "utf8" }));

/** `host_key` → `hostKey`: the generated Python SDK's names of the schema's properties. */
export const camelCase = (snake: string): string => snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
