// `npm run bench` (CLI part): start-up costs measured as ratios against baselines run in the same
// process, alternating, so machine noise hits both sides alike (SPEC.md §4 "Speed").
//   cached `tokencli token` (file store)  vs  node running an empty .mjs   goal <= 1.3
//   `tokencli --version`                   vs  node running an empty .mjs   goal <= 1.2
//   `tokencli info --json` (local service) vs  a minimal node script doing the same GET   goal <= 1.5
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTokenService } from '../dist/server/index.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 25);
// bench/keychain.mjs runs this file again inside a private D-Bus session with gnome-keyring.
const KEYCHAIN_ONLY = process.argv.includes('--keychain-only');
const bin = fileURLToPath(new URL('../bin/tokencli.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'tokencli-bench-'));
const empty = join(work, 'empty.mjs');
writeFileSync(empty, '');

const service = await startTokenService(undefined, { port: 0, log: () => {} });
const env = {
  ...process.env,
  TOKENCLI_BASE_URL: service.baseUrl,
  TOKENCLI_CLIENT_ID: 'demo-client',
  TOKENCLI_CLIENT_SECRET: 'demo-secret',
  TOKENCLI_EMAIL: 'demo@example.com',
  TOKENCLI_PASSWORD: 'demo-password',
  TOKENCLI_STORE: KEYCHAIN_ONLY ? 'keychain' : 'file',
  TOKENCLI_CONFIG_DIR: join(work, 'config'),
};

// Asynchronous spawn: the local service runs in this process and must keep answering.
function run(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} failed (${code}): ${stderr}`));
      else resolve({ ms, stdout });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** Alternates baseline and subject RUNS times each (after one warm-up of each). */
async function compare(name, baselineArgs, subjectArgs, goal) {
  await run(baselineArgs);
  await run(subjectArgs);
  const base = [];
  const subject = [];
  for (let i = 0; i < RUNS; i++) {
    base.push((await run(baselineArgs)).ms);
    subject.push((await run(subjectArgs)).ms);
  }
  const ratio = median(subject) / median(base);
  const verdict = ratio <= goal ? 'ok' : 'ABOVE GOAL';
  console.log(
    `${name.padEnd(34)} ${median(subject).toFixed(1).padStart(7)} ms vs ${median(base).toFixed(1).padStart(7)} ms  ratio ${ratio.toFixed(2)} (goal <= ${goal}) ${verdict}`,
  );
  return ratio;
}

try {
  // Fill the file store once so `token` below is the cached path.
  const token = (await run([bin, 'token'])).stdout.trim();
  const fetchScript = join(work, 'info.mjs');
  writeFileSync(
    fetchScript,
    `import { request } from 'node:http';
const url = new URL(${JSON.stringify(`${service.baseUrl}/v2/oauth/tokeninfo?client_id=demo-client`)});
request(url, { headers: { authorization: 'Bearer ' + ${JSON.stringify(token)} } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (c) => { body += c; });
  res.on('end', () => { process.stdout.write(JSON.stringify(JSON.parse(body), null, 2) + '\\n'); });
}).end();
`,
  );
  if (KEYCHAIN_ONLY) {
    await compare('token (cached, keychain)', [empty], [bin, 'token'], 1.6);
    process.exitCode = 0;
  } else {
    console.log(`node ${process.version}, ${RUNS} alternating runs each, medians`);
    await compare('token (cached, file store)', [empty], [bin, 'token'], 1.3);
    await compare('--version', [empty], [bin, '--version'], 1.2);
    await compare('info --json (local service)', [fetchScript], [bin, 'info', '--json'], 1.5);
  }
} finally {
  await service.close();
  rmSync(work, { recursive: true, force: true });
}
