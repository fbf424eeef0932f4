/** Types of scripts/release/pack-package.mjs, for the tests. */
export declare function packPackage(root: string, destination: string, stage: string): string;
