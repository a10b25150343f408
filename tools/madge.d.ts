// madge ships no type declarations; these cover what tools/lintImports.ts calls.
declare module "madge" {
    interface MadgeConfig {
        baseDir?: string;
        fileExtensions?: string[];
        excludeRegExp?: RegExp[];
        tsConfig?: string;
    }
    interface MadgeResult {
        circular(): string[][];
    }
    function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
    export = madge;
}
