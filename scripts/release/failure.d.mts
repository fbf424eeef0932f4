/** Types of scripts/release/failure.mjs, for the tests. */
export declare class BuildFailure extends Error {}
export declare function reportFailures(name: string): void;
