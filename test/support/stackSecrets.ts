// Edits a local stack file as `pulumi config set [--secret]` would: plain values and secrets
// encrypted with the file's own salt (Pulumi's passphrase provider, offline/passphraseSecrets).
import * as fs from "node:fs";
import YAML from "yaml";
import { PassphraseSecrets } from "../../lab/offline/passphraseSecrets";

export function setStackConfig(
    stackFile: string,
    passphrase: string,
    values: { plain?: Record<string, unknown>; secret?: Record<string, string> },
): void {
    const doc = YAML.parseDocument(fs.readFileSync(stackFile, "utf8"));
    const secrets = PassphraseSecrets.open(passphrase, doc.get("encryptionsalt") as string);
    for (const [key, value] of Object.entries(values.plain ?? {})) doc.setIn(["config", key], value);
    for (const [key, value] of Object.entries(values.secret ?? {})) doc.setIn(["config", key], { secure: secrets.encrypt(value) });
    fs.writeFileSync(stackFile, doc.toString({ lineWidth: 0 }), { mode: 0o600 });
}
