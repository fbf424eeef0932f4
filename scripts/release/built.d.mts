/** Types of scripts/release/built.mjs, for the tests. */
export declare function assertBuilt(root: string): void;
