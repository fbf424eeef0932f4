/** Types of scripts/release/node26.mjs, for the tests. */
export declare const SEA_NODE_MAJOR: number;
export declare function nodePackage(platform?: string, arch?: string): string;
export declare function installedSeaNode(): string | undefined;
export declare function seaNode(): string;
