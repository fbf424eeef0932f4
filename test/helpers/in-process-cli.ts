/**
 * The CLI's `main` in-process against a test token service (test/server/helpers.ts), sharing its
 * fake clock, with a browser that posts the demo user's login form and follows the redirect.
 */
import { main } from '../../src/cli/main.js';
import { DEMO, postLogin, type TestService } from '../server/helpers.js';
import { createTestIO } from './test-io.js';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of the library and CLI tests: the demo client of `baseUrl`, a file store. */
export function demoClientEnv(baseUrl: string, configDir: string): Record<string, string> {
  return {
    TOKENCLI_CONFIG_DIR: configDir,
    TOKENCLI_BASE_URL: baseUrl,
    TOKENCLI_CLIENT_ID: DEMO.clientId,
    TOKENCLI_STORE: 'file',
  };
}

/** Runs `main(args)` with the demo client and its secret, plus `env` for this run. */
export function inProcessCli(
  service: TestService,
  configDir: string,
): (args: string[], env?: NodeJS.ProcessEnv) => Promise<InProcessResult> {
  return async (args, env = {}) => {
    const io = createTestIO({
      env: {
        ...demoClientEnv(service.baseUrl, configDir),
        TOKENCLI_CLIENT_SECRET: DEMO.clientSecret,
        ...env,
      },
    });
    const code = await main(args, io, {
      now: () => new Date(service.clock.ms),
      // The browser of these tests: posts the demo user's login form and follows the redirect.
      openBrowser: async (url) => {
        const authorize = Object.fromEntries(new URL(url).searchParams);
        const answer = await postLogin(service.baseUrl, authorize);
        const location = answer.headers.get('location');
        if (!location) throw new Error(`login answered ${answer.status}`);
        await (await fetch(location)).text();
      },
    });
    return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
  };
}
