// `npm run bench` (keychain part): the cached `tokencli token` with the keychain store, against
// a real Secret Service: gnome-keyring in a private D-Bus session (the same session script the
// keychain tests use), in a throw-away HOME but with the launcher's code cache in the user's own
// cache directory. bench/cli.mjs does the timing (hyperfine -N, against an empty .mjs run alongside,
// inside the same session). Skipped, saying why, where the tools are missing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const onPath = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
const missing = ['dbus-run-session', 'dbus-send', 'gnome-keyring-daemon'].filter((tool) => !onPath(tool));
if (missing.length > 0) {
  console.log(`--profile ci token (cached, keychain)  skipped: ${missing.join(', ')} not installed`);
} else {
  const home = mkdtempSync(join(tmpdir(), 'tokencli-bench-home-'));
  const session = fileURLToPath(new URL('../test/store/fixtures/keyring-session.sh', import.meta.url));
  const bus = fileURLToPath(new URL('../test/store/fixtures/session-bus.sh', import.meta.url));
  // The session bus's and gnome-keyring's sockets go in the throw-away HOME too (session-bus.sh).
  const runtime = join(home, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  const cli = fileURLToPath(new URL('./cli.mjs', import.meta.url));
  const result = spawnSync('/bin/sh', [bus, '/bin/sh', session, 'unlocked'], {
    env: {
      ...process.env,
      HOME: home,
      XDG_RUNTIME_DIR: runtime,
      XDG_DATA_HOME: join(home, '.local/share'),
      // The user's own cache directory, as a real user's run has one: with a HOME under TMPDIR the
      // launcher would otherwise keep no code cache (bin/tokencli.js says why).
      XDG_CACHE_HOME: process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
      BODY: `"${process.execPath}" "${cli}" --keychain-only`,
    },
    stdio: 'inherit',
  });
  rmSync(home, { recursive: true, force: true });
  process.exitCode = result.status ?? 1;
}
