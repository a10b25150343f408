// Secrets reach host scripts on standard input (remote.Command `stdin`), never in the script text,
// so they stay out of Pulumi's plain-text inputs, previews and the SSH command line.
//
// Format ("secret lines"): one line per secret, `<name> <base64 of the UTF-8 value>\n`, in any
// order; names from SECRET_NAMES; empty input means no secrets. base64 keeps multi-line PEM on one
// line with no character bash could misread. The script side is ./bash/secrets.sh: it decodes with
// `base64 -d` fed through a pipe from the printf builtin, and values meant for OVS columns go in
// an OVSDB transaction written to the database socket (ovs_set_secret_ids), so a secret appears
// in no argv and no OVS log.

export const SECRET_NAMES = [
    "k8s-api-token",
    "k8s-ca-certificate",
    "ssl-private-key",
    "ssl-certificate",
    "ssl-ca-certificate",
    "ipsec-private-key",
    "ipsec-certificate",
    "ipsec-ca-certificate",
] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/** Encode the present secrets as secret lines (callers wrap the result in pulumi.secret). */
export function encodeSecretLines(secrets: Partial<Record<SecretName, string | undefined>>): string {
    return SECRET_NAMES.filter((name) => secrets[name] !== undefined)
        .map((name) => `${name} ${Buffer.from(secrets[name] as string, "utf8").toString("base64")}\n`)
        .join("");
}
