// Time stamps in the formats the Kubernetes API uses.

/** metav1.Time: RFC 3339 in whole seconds (conditions, startTime, container states). */
export function apiTime(d: Date): string {
    return d.toISOString().replace(/\.\d+Z$/, "Z");
}

/** metav1.MicroTime: RFC 3339 with microseconds (Lease renewTime). */
export function microTime(d: Date): string {
    return d.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}
