/**
 * Ctrl-C given to `exec` before CMD starts ends tokencli as any interrupted command ends
 * (`error: interrupted`, exit 130), even when the token was already in hand: CMD is not started
 * after the user asked to stop. In-process, the interrupt is delivered to the run's own SIGINT
 * listener at the moment the cached token is judged fresh (the clock is asked).
 */
import { expect, test } from 'vitest';
import { main } from '../../../../src/cli/main.js';
import { demoServiceConfig } from '../../../../src/server/index.js';
import { demoClientEnv } from '../../../helpers/in-process-cli.js';
import { tempDir } from '../../../helpers/temp-dirs.js';
import { createTestIO } from '../../../helpers/test-io.js';
import { DEMO, startService } from '../../../server/helpers.js';

test('Ctrl-C before CMD starts: error: interrupted, exit 130, CMD never runs', async () => {
  const service = await startService(demoServiceConfig());
  const configDir = tempDir('tokencli-exec-int-');
  const env = {
    ...demoClientEnv(service.baseUrl, configDir),
    TOKENCLI_CLIENT_SECRET: DEMO.clientSecret,
    TOKENCLI_EMAIL: DEMO.email,
    TOKENCLI_PASSWORD: DEMO.password,
  };
  const now = () => new Date(service.clock.ms);
  const first = createTestIO({ env });
  expect(await main(['token'], first, { now })).toBe(0);

  const marker = `${configDir}/cmd-ran`;
  const before = process.listeners('SIGINT');
  let interrupted = false;
  const io = createTestIO({ env });
  const code = await main(
    ['exec', '--', process.execPath, '-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`],
    io,
    {
      now: () => {
        if (!interrupted) {
          interrupted = true;
          for (const listener of process.listeners('SIGINT')) {
            if (!before.includes(listener)) listener('SIGINT');
          }
        }
        return now();
      },
    },
  );
  expect(interrupted).toBe(true);
  expect(io.stderrText()).toBe('error: interrupted\n');
  expect(code).toBe(130);
  const { existsSync } = await import('node:fs');
  expect(existsSync(marker)).toBe(false);
});
