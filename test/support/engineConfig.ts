// An example stack's config as the engine hands it to a program: `ovn-kubernetes:key` → text
// (structured values as JSON), with the test secrets under the secret keys.
import * as path from "node:path";
import { readStackFile } from "../../components/config/stackFile";
import { SECRET_KEYS } from "../../components/config/types";
import { ROOT } from "../../lab/harness/configs";
import { TEST_SECRETS } from "../../lab/harness/pulumiMocks";

export function engineConfig(stack: string, edit: (raw: Record<string, any>) => void = () => {}) {
    const raw = readStackFile(path.join(ROOT, "stacks", `Pulumi.${stack}.yaml`));
    edit(raw);
    const config: Record<string, string> = {};
    const secretKeys: string[] = [];
    for (const [k, v] of Object.entries(raw)) {
        const secret = (SECRET_KEYS as readonly string[]).includes(k);
        config[`ovn-kubernetes:${k}`] = secret ? TEST_SECRETS[k] : typeof v === "string" ? v : JSON.stringify(v);
        if (secret) secretKeys.push(`ovn-kubernetes:${k}`);
    }
    return { config, secretKeys };
}
