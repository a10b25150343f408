// What an NB resource costs in a checkpoint: its inputs and outputs as the state file holds them,
// secrets sealed with the passphrase provider (offline/state.ts), and of that the two copies of the
// provider text.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SECRET_SIG, SIG_KEY } from "../offline/sdk";
import { Keyring } from "../offline/secrets";
import { saveState, type StackState } from "../offline/state";
import type { Tracked } from "./engine";

export interface StateBytes {
    total: number;
    /** The two copies of `__provider` (inputs and outputs). */
    provider: number;
}

export function stateBytes(resources: Tracked[]): StateBytes[] {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nb-state-"));
    try {
        const file = path.join(dir, "state.json");
        // As the engine keeps it: secret when the program passed the key in it (nbConnectionInput).
        const marked = (p: Record<string, any>) =>
            p.nb?.privateKey === undefined ? p : { ...p, nb: { [SIG_KEY]: SECRET_SIG, value: p.nb } };
        const state: StackState = { version: 1, project: "ovn-kubernetes", stack: "nbtest", updated: "", outputs: {}, resources: [] };
        for (const t of resources) {
            state.resources.push({
                urn: t.urn,
                type: "",
                name: t.name,
                parent: "",
                custom: true,
                id: t.id,
                inputs: marked(t.checked!),
                outputs: marked(t.outputs!),
                dependencies: [],
            });
        }
        saveState(file, state, new Keyring("state-size", "nbtest"));
        const saved = JSON.parse(fs.readFileSync(file, "utf8")) as StackState;
        return saved.resources.map(({ inputs, outputs }) => ({
            total: JSON.stringify(inputs).length + JSON.stringify(outputs).length,
            provider: JSON.stringify(inputs.__provider).length + JSON.stringify(outputs.__provider).length,
        }));
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}
