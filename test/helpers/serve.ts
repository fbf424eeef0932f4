/**
 * One `tokencli serve` for every test of a file: started before the first, stopped after the last.
 * The handle it returns stands for the service once started, so tests use it as they would the
 * handle of startServe (test/helpers/cli.ts).
 */
import { afterAll, beforeAll } from 'vitest';
import { type ServeHandle, startServe } from './cli.js';

export interface ServeForFileOptions {
  /** `tokencli serve` arguments after `--port 0`. */
  args?: string[];
  /** Start nothing (the file's tests are skipped). */
  skip?: boolean;
}

export function serveForFile(options: ServeForFileOptions = {}): ServeHandle {
  let started: ServeHandle | undefined;
  beforeAll(async () => {
    if (!options.skip) started = await startServe(options.args);
  });
  afterAll(async () => {
    await started?.stop();
  });
  const running = (): ServeHandle => {
    if (!started) throw new Error('tokencli serve is not running: use it inside the tests of the file');
    return started;
  };
  return {
    get baseUrl() {
      return running().baseUrl;
    },
    get process() {
      return running().process;
    },
    logs: () => running().logs(),
    stop: async () => {
      await started?.stop();
    },
  };
}
