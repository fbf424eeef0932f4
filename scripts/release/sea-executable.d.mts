/** Types of scripts/release/sea-executable.mjs, for the tests. */
export declare function keyringAddon(): string;
export declare function buildSeaExecutable(options: {
  out: string;
  codeCaches?: boolean;
  keyringAddon?: boolean;
  mainEntry?: string;
}): Promise<string>;
