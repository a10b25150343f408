// A named phase of an end-to-end test, its wall time printed: what a reader of the test log
// compares between runs (the tests assert outcomes, never times).
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function phase<T>(name: string, body: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
        return await body();
    } finally {
        console.log(`phase ${name}: ${seconds(Date.now() - started)}`);
    }
}
