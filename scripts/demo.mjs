// `npm run demo`: starts the embedded local token service on a free port, obtains a token with
// the demo credentials through the real CLI, shows its information, and stops the service.
// Everything runs against loopback; the credentials live in a throw-away config directory.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/tokencli.js', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'tokencli-demo-'));

const server = spawn(process.execPath, [bin, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
let serverLog = '';
server.stderr.setEncoding('utf8').on('data', (chunk) => {
  serverLog += chunk;
});

const baseUrl = await new Promise((resolve, reject) => {
  server.on('exit', (code) => reject(new Error(`tokencli serve exited (${code}):\n${serverLog}`)));
  createInterface({ input: server.stdout }).once('line', (line) => resolve(JSON.parse(line).base_url));
});

const env = {
  ...process.env,
  TOKENCLI_BASE_URL: baseUrl,
  TOKENCLI_CLIENT_ID: 'demo-client',
  TOKENCLI_CLIENT_SECRET: 'demo-secret',
  TOKENCLI_EMAIL: 'demo@example.com',
  TOKENCLI_PASSWORD: 'demo-password',
  TOKENCLI_STORE: 'file',
  TOKENCLI_CONFIG_DIR: configDir,
};

function step(title, args) {
  process.stdout.write(`\n$ tokencli ${args.join(' ')}    # ${title}\n`);
  const result = spawnSync(process.execPath, [bin, ...args], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`tokencli ${args.join(' ')} exited with ${result.status}`);
}

let failed = false;
try {
  process.stdout.write(`Local token service (tokencli serve) listening at ${baseUrl}\n`);
  process.stdout.write(
    'Demo credentials: client demo-client / demo-secret, user demo@example.com / demo-password\n',
  );
  step('client-credentials grant; prints the access token', ['token']);
  step('the cached token, no network this time', ['token', '--json']);
  step('token information from the tokeninfo endpoint', ['info']);
} catch (error) {
  failed = true;
  process.stderr.write(`demo failed: ${error.message}\n--- service log ---\n${serverLog}`);
} finally {
  server.removeAllListeners('exit');
  server.kill('SIGTERM');
  rmSync(configDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
