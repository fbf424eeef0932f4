/** Types of scripts/release/entry-time.mjs, for the tests. */
export declare function entryTime(
  root: string,
  env?: NodeJS.ProcessEnv,
): Promise<{ seconds: number; why?: undefined } | { seconds?: undefined; why: string }>;
