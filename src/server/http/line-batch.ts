/**
 * Log lines written at once when they are few and gathered when they come fast. Writes to stderr
 * are synchronous on Linux (a file, a pipe or a terminal): one system call per request line cost
 * the service a seventh of its throughput under load, and even one per event-loop turn still
 * showed (bench/serve.mjs). So a line that comes while nothing was written for a while is written
 * straight away, as before, and opens a short window; lines that come within it are written
 * together when it ends. Lines keep their order and their text; only the number of writes changes.
 */

export interface LineBatch {
  /** Writes one line (given without its newline), now or at the end of the current window. */
  log(line: string): void;
  /** Writes whatever is queued now: before other output that must follow it, and at shutdown. */
  flush(): void;
}

export interface LineBatchOptions {
  /** How long a window lasts, so how long a line may wait; default 10 ms. */
  windowMs?: number;
  /** Queued characters that end the window at once; default 32 Ki. */
  maxChars?: number;
}

/**
 * @param write receives one or more whole lines, each ending with a newline
 */
export function lineBatch(write: (text: string) => void, options: LineBatchOptions = {}): LineBatch {
  const windowMs = options.windowMs ?? 10;
  const maxChars = options.maxChars ?? 32 * 1024;
  let pending = '';
  // Kept referenced: a process winding down still writes the last lines before it ends.
  let window: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (window !== undefined) {
      clearTimeout(window);
      window = undefined;
    }
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  return {
    log(line) {
      if (window === undefined) {
        window = setTimeout(flush, windowMs);
        write(`${line}\n`);
        return;
      }
      pending += `${line}\n`;
      if (pending.length >= maxChars) flush();
    },
    flush,
  };
}
