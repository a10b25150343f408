/** One thing wrong with a stack's configuration: the config path and what is wrong there. */
export interface Problem {
    path: string;
    message: string;
}

/** Every problem of a configuration, reported at once: validation's, and the stack file reader's. */
export class ConfigError extends Error {
    constructor(readonly problems: Problem[]) {
        super(`invalid stack configuration:\n${problems.map((p) => `  ${p.path}: ${p.message}`).join("\n")}`);
        this.name = "ConfigError";
    }
}
