/** Types of scripts/left-dirs.mjs, for the tests. */
export declare function makeDirOfThisProcess(prefix: string, parent?: string): string;
export declare function removeLeftDirs(prefix: string, parent: string, now?: number): void;
