/** Types of scripts/release/train-code-cache.mjs, for the tests. */
export declare function trainCodeCaches(
  exe: string,
  dir: string,
  options?: { signal?: AbortSignal },
): Promise<Record<string, string>>;
export declare function withTrainedCodeCaches<T>(
  exe: string,
  use: (caches: Record<string, string>, signal: AbortSignal) => T | Promise<T>,
): Promise<T>;
