// `npm run bench:serve`: throughput of `tokencli serve` (the CLI, writing its request log to a
// file as `tokencli serve 2> serve.log` would) against a bare node:http server answering a fixed
// JSON body, side by side in one run (goals: client-credentials >= 0.6, tokeninfo >= 0.85). Also
// shown: the ratio to the bare server batching its answers as the service does, and to node:http
// sending the service's own answer byte for byte, batched alike; and the CPU time per request of
// each server and of the load generator. Then the resident memory per live token after issuing
// 100k tokens in-process (goal: <= 1 KiB per token).
//
// One file, five roles: without an argument it orchestrates; `bare`, `bare-batched` and `echo` run
// the baselines and the CLI runs the service, each in a process of its own (so the load
// generator, autocannon, does not share their event loop); `memory` issues the 100k tokens in a
// fresh process with --expose-gc. Loopback only.
import { fork, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const DIST = new URL('../dist/server/', import.meta.url);
const CLI = fileURLToPath(new URL('../bin/tokencli.js', import.meta.url));
/** Alternating slices per server and request shape, and their length in seconds. */
const SLICES = Number(process.env.BENCH_SLICES ?? 12);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 0.5);
const CONNECTIONS = 10;
const TOKENS = 100_000;
const GOALS = { 'client-credentials token': 0.6, tokeninfo: 0.85 };

const role = process.argv[2];
if (role === 'bare') await runBare();
else if (role === 'bare-batched') await runBare({ batched: true });
else if (role === 'echo') await runEcho();
else if (role === 'memory') await runMemory();
else await orchestrate();

/**
 * `tokencli serve --port 0` as a user starts it, its request log (stderr) going to a file; resolves
 * with the base URL from its first stdout line.
 */
function startCli(logFile) {
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', log] });
  closeSync(log);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline !== -1) resolve({ child, baseUrl: JSON.parse(out.slice(0, newline)).base_url });
    });
    child.once('exit', (code) => reject(new Error(`tokencli serve exited with ${code}`)));
  });
}

/**
 * The bare server. With `batched`, it ends its answers as the service does (a turn's first at once,
 * the rest together at the turn's end: src/server/http/answer-batch.ts, the same code): how much of
 * the service's ratio to the plain bare server is that way of writing answers rather than its work.
 */
async function runBare({ batched = false } = {}) {
  // What a token response looks like, so both servers send bodies of about the same size.
  const body = JSON.stringify({
    access_token: 'x'.repeat(43),
    token_type: 'BearerToken',
    expires_in: 3600,
    redirect_url: 'http://127.0.0.1:8765/callback',
    email: 'demo@example.com',
  });
  const { endBatched } = batched ? await import(new URL('http/answer-batch.js', DIST).href) : {};
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    if (endBatched) endBatched(res, body);
    else res.end(body);
  });
  server.listen(0, '127.0.0.1', () => process.send({ baseUrl: `http://127.0.0.1:${server.address().port}` }));
  process.on('disconnect', () => server.close());
}

/**
 * The second baseline: a bare node:http server sending exactly the service's answer for the shape
 * being measured (its status, headers and body, set by the orchestrator), so that both put the
 * same bytes on the wire and the load generator, which shares the machine, parses the same
 * answers; and ending them as the service does, a turn's first at once and the rest together at
 * the turn's end (src/server/http/answer-batch.ts, the same code). The ratio to it is the cost of
 * the service's own work alone; the ratio to the bare server also counts how the answers are written.
 */
async function runEcho() {
  const { endBatched } = await import(new URL('http/answer-batch.js', DIST).href);
  let answer = { status: 200, headers: {}, body: '' };
  process.on('message', (message) => {
    answer = message;
    process.send({ ready: true });
  });
  const server = createServer((_req, res) => {
    res.writeHead(answer.status, answer.headers);
    endBatched(res, answer.body);
  });
  server.listen(0, '127.0.0.1', () => process.send({ baseUrl: `http://127.0.0.1:${server.address().port}` }));
  process.on('disconnect', () => server.close());
}

/** The service's answer as the echo baseline repeats it: what the service sends, minus per-connection headers. */
async function sampleAnswer(url, request) {
  const response = await fetch(url, request);
  const body = await response.text();
  const headers = {};
  for (const name of ['content-type', 'x-content-type-options', 'cache-control', 'pragma']) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  headers['content-length'] = Buffer.byteLength(body);
  return { status: response.status, headers, body };
}

async function runMemory() {
  const { validateServiceConfig } = await import(new URL('config-validation.js', DIST).href);
  const { demoServiceConfig } = await import(new URL('demo-config.js', DIST).href);
  const { Registry } = await import(new URL('registry.js', DIST).href);
  const { TokenStore } = await import(new URL('token-store.js', DIST).href);
  const { clientCredentialsGrant } = await import(new URL('grants/client-credentials.js', DIST).href);
  const config = validateServiceConfig(demoServiceConfig());
  const registry = new Registry(config);
  const store = new TokenStore(
    {
      accessTokenTtl: config.access_token_ttl,
      refreshTokenTtl: config.refresh_token_ttl,
      codeTtl: config.code_ttl,
    },
    Date.now,
  );
  const app = registry.app('demo-client');
  const params = new Map([
    ['email', 'demo@example.com'],
    ['password', 'demo-password'],
  ]);
  const issue = () => clientCredentialsGrant({ app, params, endOtherSessions: false }, { registry, store });
  issue(); // warm up the code paths before the baseline
  globalThis.gc();
  const before = process.memoryUsage();
  for (let i = 0; i < TOKENS; i++) {
    if (issue().status !== 200) throw new Error('token issuance failed');
  }
  globalThis.gc();
  const after = process.memoryUsage();
  process.send({
    tokens: store.size().accessTokens,
    rssPerToken: (after.rss - before.rss) / TOKENS,
    heapPerToken: (after.heapUsed - before.heapUsed) / TOKENS,
    rss: after.rss,
  });
}

function startChild(name, execArgv = []) {
  const child = fork(SELF, [name], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, message }));
    child.once('exit', (code) => reject(new Error(`bench child ${name} exited with ${code}`)));
  });
}

/**
 * CPU time (user + system, all threads) a process has used so far, in microseconds, from
 * /proc/PID/stat; undefined where there is no /proc (macOS). Its clock ticks are 1/100 s on
 * Linux, so over a slice of thousands of requests it resolves about a microsecond per request.
 */
function processCpuMicros(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * Requests per second of the service and of each baseline for one request shape. The machine is
 * shared and its load moves, so they are measured in short alternating slices rather than one
 * after the other, and each ratio is the median of the ratios of neighbouring slices: a burst of
 * load elsewhere moves one slice, not the result. Each slice also records the CPU time per request
 * of the server and of the load generator (this process), which shows which of the two bounds a
 * slice: on two cores, whichever needs more CPU per request sets the rate.
 *
 * @param targets the service first, then the baselines, by name
 */
async function measureRound(autocannon, name, targets) {
  const run = async (title, { pid, ...options }, duration, cpu) => {
    const serverBefore = processCpuMicros(pid);
    const generatorBefore = process.cpuUsage();
    const result = await autocannon({ ...options, duration, connections: CONNECTIONS });
    const generator = process.cpuUsage(generatorBefore);
    const serverAfter = processCpuMicros(pid);
    const bad = result.non2xx + result.errors + result.timeouts;
    if (bad > 0)
      throw new Error(`${title}: ${bad} failed requests (non-2xx ${result.non2xx}, errors ${result.errors})`);
    const requests = result.requests.total;
    if (cpu && serverBefore !== undefined && serverAfter !== undefined) {
      cpu.server.push((serverAfter - serverBefore) / requests);
      cpu.generator.push((generator.user + generator.system) / requests);
    }
    // The run lasts a little longer than asked (connections are set up and drained): its own length.
    return requests / result.duration;
  };
  const names = Object.keys(targets);
  // Warm-up, so all are measured with their code already optimised.
  for (const side of names) await run(`${side} ${name}`, targets[side], 1);
  const rates = Object.fromEntries(names.map((side) => [side, []]));
  const cpu = Object.fromEntries(names.map((side) => [side, { server: [], generator: [] }]));
  for (let slice = 0; slice < SLICES; slice++) {
    for (const side of names)
      rates[side].push(await run(`${side} ${name}`, targets[side], SLICE_SECONDS, cpu[side]));
  }
  const cpuMedians = (side) =>
    side.server.length === 0 ? undefined : { server: median(side.server), generator: median(side.generator) };
  const [first] = names;
  return Object.fromEntries(
    names.map((side) => {
      const toService = rates[first].map((rate, i) => rate / rates[side][i]);
      return [
        side,
        {
          rate: median(rates[side]),
          ratio: median(toService),
          spread: [Math.min(...toService), Math.max(...toService)],
          cpu: cpuMedians(cpu[side]),
        },
      ];
    }),
  );
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function orchestrate() {
  const { default: autocannon } = await import('autocannon');
  const logDir = mkdtempSync(join(tmpdir(), 'tokencli-bench-'));
  const logFile = join(logDir, 'serve.log');
  const [service, bare, bareBatched, echo] = await Promise.all([
    startCli(logFile),
    startChild('bare'),
    startChild('bare-batched'),
    startChild('echo'),
  ]);
  const serviceUrl = service.baseUrl;
  try {
    const tokenRequest = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'demo-client',
        client_secret: 'demo-secret',
        email: 'demo@example.com',
        password: 'demo-password',
      }).toString(),
    };
    const issued = await fetch(`${serviceUrl}/v2/oauth/token`, tokenRequest).then((r) => r.json());
    const infoRequest = { method: 'GET', headers: { authorization: `Bearer ${issued.access_token}` } };
    const infoPath = '/v2/oauth/tokeninfo?client_id=demo-client';

    console.log(
      `tokencli serve (request log to a file) throughput, ${CONNECTIONS} connections, ${SLICES} alternating ${SLICE_SECONDS} s slices each (medians), loopback, node ${process.version}`,
    );
    for (const [name, request, path] of [
      ['client-credentials token', tokenRequest, '/v2/oauth/token'],
      ['tokeninfo', infoRequest, infoPath],
    ]) {
      const answer = await sampleAnswer(`${serviceUrl}${path}`, request);
      const ready = new Promise((resolve) => echo.child.once('message', resolve));
      echo.child.send(answer);
      await ready;
      const target = (url, pid) => ({ url: `${url}${path}`, pid, ...request });
      const result = await measureRound(autocannon, name, {
        service: target(serviceUrl, service.child.pid),
        bare: target(bare.message.baseUrl, bare.child.pid),
        batched: target(bareBatched.message.baseUrl, bareBatched.child.pid),
        echo: target(echo.message.baseUrl, echo.child.pid),
      });
      const goal = GOALS[name];
      const { ratio, spread } = result.bare;
      const rate = (side) => result[side].rate.toFixed(0).padStart(7);
      const indent = `  ${''.padEnd(26)} ${''.padStart(7)}        `;
      console.log(
        `  ${name.padEnd(26)} ${rate('service')} req/s   bare node:http ${rate('bare')} req/s   ratio ${ratio.toFixed(2)} (goal >= ${goal}; slices ${spread[0].toFixed(2)}–${spread[1].toFixed(2)})${ratio < goal ? '  BELOW GOAL' : ''}`,
      );
      console.log(
        `${indent} bare, batched  ${rate('batched')} req/s   ratio ${result.batched.ratio.toFixed(2)} (the bare server ending its answers as the service does; ${(result.batched.rate / result.bare.rate).toFixed(2)}× the plain one)`,
      );
      console.log(
        `${indent} same answer    ${rate('echo')} req/s   ratio ${result.echo.ratio.toFixed(2)} (node:http sending the service's own ${Buffer.byteLength(answer.body)}-byte answer and headers, batched alike)`,
      );
      if (Object.values(result).every((side) => side.cpu)) {
        const pair = (side) =>
          `${result[side].cpu.server.toFixed(1)} / ${result[side].cpu.generator.toFixed(1)}`;
        console.log(
          `${indent} CPU µs per request, server / load generator: service ${pair('service')}, bare ${pair('bare')}, bare batched ${pair('batched')}, same answer ${pair('echo')}`,
        );
      }
    }
  } finally {
    bare.child.disconnect();
    bareBatched.child.disconnect();
    echo.child.disconnect();
    await new Promise((resolve) => {
      service.child.once('exit', resolve);
      service.child.kill('SIGTERM');
    });
    console.log(`  (request log written: ${(statSync(logFile).size / 1048576).toFixed(1)} MiB)`);
    rmSync(logDir, { recursive: true, force: true });
  }

  const memory = await startChild('memory', ['--expose-gc']);
  const m = memory.message;
  console.log(`memory after issuing ${m.tokens} live tokens in-process`);
  console.log(
    `  resident ${(m.rssPerToken).toFixed(0)} B/token (goal <= 1024), heap ${m.heapPerToken.toFixed(0)} B/token, rss ${(m.rss / 1048576).toFixed(0)} MiB total${m.rssPerToken > 1024 ? '  BELOW GOAL' : ''}`,
  );
  memory.child.disconnect();
}
