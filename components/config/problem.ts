/** One thing wrong with a stack's configuration: the config path and what is wrong there. */
export interface Problem {
    path: string;
    message: string;
}
