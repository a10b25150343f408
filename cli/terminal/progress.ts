// Long steps say that they are still running, and how long they took: a line every `every` ms
// while the work runs (never rewriting a line, so it reads the same in a terminal and a log) and
// the elapsed time at the end.

export const elapsed = (ms: number) =>
    ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

export interface ProgressOptions {
    /** Where the lines go (default: stderr, so stdout stays the command's result). */
    write?: (line: string) => void;
    every?: number;
    now?: () => number;
}

export async function withProgress<T>(label: string, work: () => Promise<T>, options: ProgressOptions = {}): Promise<T> {
    const write = options.write ?? ((line: string) => process.stderr.write(line + "\n"));
    const now = options.now ?? Date.now;
    const started = now();
    const timer = setInterval(() => write(`  … ${label}: ${elapsed(now() - started)}`), options.every ?? 15_000);
    try {
        const result = await work();
        write(`  ${label}: done in ${elapsed(now() - started)}`);
        return result;
    } catch (e) {
        write(`  ${label}: failed after ${elapsed(now() - started)}`);
        throw e;
    } finally {
        clearInterval(timer);
    }
}
