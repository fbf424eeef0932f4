import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { SOCKET_NAME_MAX, SOCKET_PATH_MAX, socketParent, socketPath } from './socket-dir.js';
import { removeTempDirs } from './temp-dirs.js';

afterAll(removeTempDirs);

// macOS's own (os.tmpdir(), 48 bytes), with the run's directory below it: 74 bytes before a test's.
const MACOS_RUN_TEMP = '/var/folders/3l/4n1_d3p52kdfxgvpw3vdf9kh0000gn/T/tokencli-test-run-AbC123';

test('a temporary directory with room for the socket is kept', () => {
  expect(socketParent('tokencli-bus-', '/tmp/tokencli-test-run-AbC123', 'linux')).toBe(
    '/tmp/tokencli-test-run-AbC123',
  );
  expect(socketParent('tokencli-bus-', '/private/tmp', 'darwin')).toBe('/private/tmp');
});

test("macOS's temporary directory leaves no room: the socket goes in /tmp, on Linux as well", () => {
  expect(socketParent('tokencli-bus-', MACOS_RUN_TEMP, 'darwin')).toBe('/tmp');
  expect(socketParent('tokencli-bus-', MACOS_RUN_TEMP, 'linux')).toBe('/tmp');
});

test('the limit is counted in bytes, for the longest name a socket may have', () => {
  const fits = `/t/${'a'.repeat(SOCKET_PATH_MAX - 3 - 1 - 'p-XXXXXX/'.length - SOCKET_NAME_MAX)}`;
  expect(socketParent('p-', fits, 'darwin')).toBe(fits);
  expect(socketParent('p-', `${fits}a`, 'darwin')).toBe('/tmp');
  // Two bytes each in UTF-8.
  const wide = `/t/${'é'.repeat(Math.ceil(fits.length / 2))}`;
  expect(socketParent('p-', wide, 'darwin')).toBe('/tmp');
});

test('on Windows the temporary directory is kept, however long', () => {
  expect(socketParent('tokencli-bus-', `C:\\${'x'.repeat(200)}`, 'win32')).toBe(`C:\\${'x'.repeat(200)}`);
});

test('a name longer than a socket directory has room for is refused', () => {
  expect(() => socketPath('x'.repeat(SOCKET_NAME_MAX + 1))).toThrow(/longer than/);
});

test.skipIf(process.platform === 'win32')(
  'a socket listens at the path, in a directory of its own (skipped on Windows: no Unix socket paths)',
  async () => {
    const path = socketPath('x'.repeat(SOCKET_NAME_MAX), 'tokencli-socket-dir-');
    expect(Buffer.byteLength(path)).toBeLessThanOrEqual(SOCKET_PATH_MAX);
    expect(statSync(dirname(path)).isDirectory()).toBe(true);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, resolve);
    });
    expect(statSync(path).isSocket()).toBe(true);
    await new Promise((r) => server.close(r));
    removeTempDirs();
    expect(existsSync(dirname(path))).toBe(false);
  },
);
