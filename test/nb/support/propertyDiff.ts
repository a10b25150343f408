// The property paths at which two property bags differ, written the way the Pulumi engine writes
// property paths in its diff display (`rows["Logical_Switch_Port stor-node2"].mac`): a key
// that is a plain identifier after a dot, any other key in brackets and quotes, array indexes in
// brackets. Leaves only, sorted.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const step = (path: string, key: string) => (IDENTIFIER.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`);

export function propertyDiff(olds: unknown, news: unknown, path = ""): string[] {
    const bothObjects =
        typeof olds === "object" &&
        olds !== null &&
        typeof news === "object" &&
        news !== null &&
        !Array.isArray(olds) &&
        !Array.isArray(news);
    if (!bothObjects) return JSON.stringify(olds) === JSON.stringify(news) ? [] : [path];
    const keys = [...new Set([...Object.keys(olds as object), ...Object.keys(news as object)])].sort();
    return keys.flatMap((k) => propertyDiff((olds as any)[k], (news as any)[k], step(path, k)));
}
