/**
 * Log lines gathered for a few milliseconds and written in one piece. Writes to stderr are
 * synchronous on Linux (a file, a pipe or a terminal): one system call per request line cost the
 * service a seventh of its throughput under load, and even one per event-loop turn still showed
 * (bench/serve.mjs). Lines keep their order and their text; only the number of writes changes.
 */

export interface LineBatch {
  /** Queues one line (without its newline); written with the others of this window. */
  log(line: string): void;
  /** Writes whatever is queued now: before other output that must follow it, and at shutdown. */
  flush(): void;
}

export interface LineBatchOptions {
  /** How long a line may wait; default 10 ms, short enough that a reader sees it at once. */
  maxDelayMs?: number;
  /** Queued characters that trigger a write at once; default 32 Ki. */
  maxChars?: number;
}

/**
 * @param write receives one or more whole lines, each ending with a newline
 */
export function lineBatch(write: (text: string) => void, options: LineBatchOptions = {}): LineBatch {
  const maxDelayMs = options.maxDelayMs ?? 10;
  const maxChars = options.maxChars ?? 32 * 1024;
  let pending = '';
  // Kept referenced: a process winding down still writes the last lines before it ends.
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  return {
    log(line) {
      pending += `${line}\n`;
      if (pending.length >= maxChars) flush();
      else timer ??= setTimeout(flush, maxDelayMs);
    },
    flush,
  };
}
