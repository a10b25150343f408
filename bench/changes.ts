// Benchmark (not a test): every live-change scenario in bench/changes/, each on its own local
// cluster, under continuous traffic between pods on nodes the change does not touch. Prints one
// line per scenario: how long the `up` that carried the change took and the loss the untouched
// pairs saw.
//   node --import tsx bench/changes.ts [scenario ...]
import * as fs from "fs";
import * as path from "path";
import { totals, type ChangeOutcome } from "@ovn-kubernetes-as-code/lab/scenarios";

/** What a scenario module in bench/changes/ exports as `scenario`. */
export interface ChangeScenario {
    name: string;
    /** Brings up its cluster, applies, makes the change with traffic running, tears down. */
    run(): Promise<ChangeFigures>;
}

export interface ChangeFigures {
    /** Seconds the `up` that carried the change took. */
    upSeconds: number;
    /** Probes sent and lost between pods on untouched nodes while the change landed. */
    sent: number;
    lost: number;
}

/** Figures of the `up` that carried a change. */
export const figures = (o: ChangeOutcome<never>): ChangeFigures => ({ upSeconds: o.seconds, ...totals(o.traffic) });

async function main() {
    const dir = path.join(__dirname, "changes");
    const wanted = process.argv.slice(2);
    const files = fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".ts"))
        .sort();
    for (const file of files) {
        const { scenario } = (await import(path.join(dir, file))) as { scenario: ChangeScenario };
        if (wanted.length > 0 && !wanted.includes(scenario.name)) continue;
        const f = await scenario.run();
        const loss = f.sent === 0 ? "n/a" : `${((100 * f.lost) / f.sent).toFixed(2)}%`;
        console.log(
            `${scenario.name.padEnd(24)} up ${f.upSeconds.toFixed(1).padStart(6)} s   untouched pairs: ${f.lost}/${f.sent} lost (${loss})`,
        );
    }
}

if (require.main === module) {
    main().catch((err) => {
        console.error(err);
        process.exit(1);
    });
}
