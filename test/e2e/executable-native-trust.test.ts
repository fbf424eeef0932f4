/**
 * The executable keeps the keychain's native module in the user's cache directory only where no
 * one else can write on the way to it (bin/tokencli.js `trustedCacheRoot`): another user who could
 * would have a window between the module's check and its load to swap in a library of theirs. Such
 * a cache home gets nothing; the module is loaded from a private temporary directory, removed at
 * once, and the keychain works as ever. Where the cache home is the user's alone the module is kept
 * there (test/e2e/token-keychain.test.ts), beside the copy of one other release at most.
 */
import { chmodSync, chownSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { partsRequired } from '../helpers/ci-required.js';
import { BINARY, CLI_SH } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { missingSecretServiceTools, runSession, sandbox } from '../store/store-child.js';
import { demoEnv } from './env.js';

const missing = missingSecretServiceTools();
const why = !BINARY
  ? 'no TOKENCLI_BINARY; the package loads the module from node_modules'
  : missing !== undefined && !partsRequired()
    ? missing
    : undefined;
const root = process.getuid?.() === 0;

const serve = serveForFile({ skip: why !== undefined });

describe.skipIf(why !== undefined)(
  `the executable keeps its native module only where no one else can write${why ? ` (skipped: ${why})` : ''}`,
  () => {
    /** Runs `body` in an unlocked keyring's session, the store the keychain, with this cache home and TMPDIR. */
    function keychainSession(
      body: string,
      where: { env: NodeJS.ProcessEnv; configDir: string; cacheHome: string; tmp: string },
    ) {
      return runSession(
        { keyring: 'unlocked', body },
        {
          ...where.env,
          ...demoEnv(serve.baseUrl, where.configDir),
          TOKENCLI_STORE: 'keychain',
          XDG_CACHE_HOME: where.cacheHome,
          TMPDIR: where.tmp,
        },
        where.configDir,
      );
    }

    /** `token` and `logout` through the keychain with the cache home `open`ed: what each left. */
    async function keychainRuns(open: (dir: string) => void) {
      if (missing) throw new Error(`CI must provide the Secret Service: ${missing}`);
      const { env, configDir, home } = sandbox();
      const tmp = join(home, 'tmp');
      mkdirSync(tmp);
      const shared = join(home, 'shared-cache');
      mkdirSync(shared, { mode: 0o700 });
      open(shared);
      const body = [
        `${CLI_SH} token >/dev/null 2>"$HOME/err1" || echo "token failed: $(cat "$HOME/err1")" >&2`,
        `${CLI_SH} logout >/dev/null 2>"$HOME/err2" || echo "logout failed: $(cat "$HOME/err2")" >&2`,
        `echo "cache home: $(ls -A '${shared}')"`,
        'echo "left: $(ls -A "$TMPDIR")"',
      ].join('; ');
      const result = await keychainSession(body, { env, configDir, cacheHome: shared, tmp });
      expect(result.stderr).not.toContain('failed');
      expect(result.stdout).toContain('cache home: \n');
      expect(result.stdout).toContain('left: \n');
    }

    test('other releases’ copies of the module: the one written last stays beside it, older ones go', async () => {
      if (missing) throw new Error(`CI must provide the Secret Service: ${missing}`);
      const { env, configDir, home } = sandbox();
      const tmp = join(home, 'tmp');
      mkdirSync(tmp);
      const cacheHome = join(home, 'cache');
      const native = join(cacheHome, 'tokencli', 'native');
      mkdirSync(native, { recursive: true, mode: 0o700 });
      const copies = { older: 'a'.repeat(64), newer: 'b'.repeat(64), oldest: 'c'.repeat(64) };
      for (const [copy, written] of [
        [copies.oldest, 1_000_000],
        [copies.older, 2_000_000],
        [copies.newer, 3_000_000],
      ] as const) {
        writeFileSync(join(native, `${copy}.node`), 'another release’s module', { mode: 0o600 });
        utimesSync(join(native, `${copy}.node`), written, written);
      }
      const body = [
        `${CLI_SH} token >/dev/null 2>"$HOME/err" || echo "token failed: $(cat "$HOME/err")" >&2`,
        `echo "native: $(ls '${native}' | tr '\n' ' ')"`,
      ].join('; ');
      const result = await keychainSession(body, { env, configDir, cacheHome, tmp });
      expect(result.stderr).not.toContain('failed');
      const kept = /native: (.*)\n/.exec(result.stdout)?.[1]?.trim().split(' ');
      expect(kept).toHaveLength(2);
      expect(kept).toContain(`${copies.newer}.node`);
      expect(kept?.find((name) => name !== `${copies.newer}.node`)).toMatch(/^[0-9a-f]{64}\.node$/);
    });

    test('a cache home open to others gets nothing, and the keychain works', async () => {
      await keychainRuns((dir) => chmodSync(dir, 0o777));
    });

    test.runIf(root)(
      `a cache home that is another user’s (a sudo run with the user’s HOME) gets nothing, and the keychain works${root ? '' : ' (skipped: only root can give a directory away)'}`,
      async () => {
        await keychainRuns((dir) => chownSync(dir, 4242, 4242));
      },
    );
  },
);
