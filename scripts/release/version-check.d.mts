/** Types of scripts/release/version-check.mjs, for the tests. */
export declare function versionMismatches(root: string, tag: string): string[];
export declare function pinnedReleases(text: string): string[];
export declare function tagProblem(tag: string): string | undefined;
