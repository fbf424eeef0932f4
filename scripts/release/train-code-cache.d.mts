/** Types of scripts/release/train-code-cache.mjs, for the tests. */
export declare function trainCodeCaches(exe: string, dir: string): Promise<Record<string, string>>;
