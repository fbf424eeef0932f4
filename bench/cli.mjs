// `npm run bench` (CLI part): start-up costs as ratios against baselines (docs/contract.md §4 "Speed"),
// measured the plain way: every timed command is a direct child of hyperfine run with `-N` (no
// shell, and a parent that does nothing else), and the token service runs in a process of its own.
// The shapes scripts use, each from the cache of a profile `ci` in the config file (file store):
//   TOKENCLI_PROFILE=ci tokencli token                  vs  node empty.mjs          goal <= 1.2
//   tokencli --profile ci token                         vs  node empty.mjs          goal <= 1.2
//   tokencli token --profile ci --format header         vs  node empty.mjs          goal <= 1.2
//   tokencli token --profile ci --min-ttl 300           vs  node empty.mjs          goal <= 1.2
//   tokencli exec --profile ci -- node empty.mjs        vs  node empty.mjs, per node started
//                                                                                   goal <= 1.2
//   tokencli info --profile ci --json (local service)   vs  a minimal GET script    goal <= 1.2
//   tokencli --version                                  vs  node empty.mjs          goal <= 1.1
//   cached `tokencli token` (keychain)                  vs  node empty.mjs          goal <= 1.3
//       (bench/keychain.mjs runs this file with --keychain-only in a private D-Bus session)
// and the single executable of release/ (`npm run build:release`, which prebench runs), against
// the node it embeds (Node 26, scripts/release/node26.mjs) running an empty .mjs:
//   tokencli --profile ci token (the executable)        vs  node26 empty.mjs        goal <= 1.0
//     the same with no code cache in the user's cache directory (a CI job's fresh home)
//   tokencli --version (the executable)                 vs  node26 empty.mjs        goal <= 1.0
//   a second copy of node26, empty.mjs (a control: what the machine alone makes of such a ratio)
//     vs  node26 empty.mjs; every side of these rows is copied afresh for each round (below)
//   the executable's --version and cached token in instructions, against node26 empty.mjs (valgrind,
//     bench/instructions.mjs; skipped without it): the work itself, without the machine's noise
//   the release archive's size                                                      goal <= 45 MB
// hyperfine runs all of one command's runs before the next's, so the comparison is made in ROUNDS
// short hyperfine runs that alternate which side goes first: load from other processes on the
// machine then falls on both sides alike. Reported: the medians over all runs, their ratio, the
// spread of the per-round ratios (min–max), and the ratio of median CPU time (user + system).
// BENCH_ROUNDS and BENCH_RUNS change the counts; BENCH_ONLY (a regular expression) runs only the
// rows whose name it matches, e.g. BENCH_ONLY='exec|info'.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { seaNode } from '../scripts/release/node26.mjs';
import { archiveName } from '../scripts/release/platform.mjs';
import { canCountInstructions, countInstructions } from './instructions.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const KEYCHAIN_ONLY = process.argv.includes('--keychain-only');
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const bin = fileURLToPath(new URL('../bin/tokencli.js', import.meta.url));
const node = process.execPath;

if (spawnSync('hyperfine', ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.error('error: hyperfine is not installed');
  console.error(
    'hint: apt-get install hyperfine (Debian/Ubuntu), brew install hyperfine, or cargo install hyperfine',
  );
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'tokencli-bench-'));
const empty = join(work, 'empty.mjs');
writeFileSync(empty, '');
const emptyCjs = join(work, 'empty.cjs');
writeFileSync(emptyCjs, '');

/** `tokencli serve` in its own process; resolves with its base URL once it listens. */
function startService() {
  // Its request log is not wanted here; stdout is drained so a full pipe never stalls it.
  const child = spawn(node, [bin, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`tokencli serve exited (${code}) before listening`)));
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      child.removeAllListeners('exit');
      lines.on('line', () => {});
      resolve({ child, baseUrl: JSON.parse(line).base_url });
    });
  });
}

const service = await startService();
// The profile `ci` holds the service; the credentials are given only to fill the cache.
const configDir = join(work, 'config');
mkdirSync(configDir, { mode: 0o700 });
writeFileSync(
  join(configDir, 'config.json'),
  JSON.stringify({ profiles: { ci: { base_url: service.baseUrl, client_id: 'demo-client' } } }),
  { mode: 0o600 },
);
const env = {
  ...process.env,
  TOKENCLI_STORE: KEYCHAIN_ONLY ? 'keychain' : 'file',
  TOKENCLI_CONFIG_DIR: configDir,
};
// NODE_EXTRA_CA_CERTS makes every node process, the floor's too, parse a CA bundle at start: on the
// development machine it is set to the whole system bundle and adds ~85 ms to each side, which
// would hide the differences being measured. Measured without it, as most users run.
if (env.NODE_EXTRA_CA_CERTS) {
  delete env.NODE_EXTRA_CA_CERTS;
  if (!KEYCHAIN_ONLY) console.log('(NODE_EXTRA_CA_CERTS is unset for the measured commands)');
}
const fillEnv = {
  ...env,
  TOKENCLI_CLIENT_SECRET: 'demo-secret',
  TOKENCLI_EMAIL: 'demo@example.com',
  TOKENCLI_PASSWORD: 'demo-password',
};

/** hyperfine's command syntax for -N: words split like a shell would, so quote each one. */
const command = (args) => args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');

/** One hyperfine run of both commands (in the given order); returns each one's times in ms. */
function hyperfine(commands, runEnv) {
  const out = join(work, 'round.json');
  const result = spawnSync(
    'hyperfine',
    ['-N', '--warmup', '2', '--runs', String(RUNS), '--style', 'none', '--export-json', out, ...commands],
    // Its warnings about outliers are expected on a shared machine: the rounds are the answer.
    { env: runEnv, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw new Error(`hyperfine failed (${result.status ?? result.signal}): ${result.stderr}`);
  const { results } = JSON.parse(readFileSync(out, 'utf8'));
  // Wall times of every run, and the mean CPU time (user + system) of the round, in ms.
  return results.map((r) => ({ wall: r.times.map((s) => s * 1000), cpu: (r.user + r.system) * 1000 }));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * `nodes`: how many node processes the subject starts (exec starts the command's too): the ratio
 * is per node started. `extraEnv`: variables for this comparison only (both sides get them).
 * `cjsBaselineArgs`: the same baseline as a CommonJS script, measured in the same rounds. The goals
 * are set against the `.mjs` baseline; node starts a CommonJS script without its ES module loader,
 * some milliseconds sooner, and the launcher is one (bin/tokencli.js), so the ratio to the CommonJS
 * baseline is shown too: it is what tokencli adds to the fastest node program. `beforeRound`: run
 * before each round (the executable's rows lay their files down afresh there).
 */
function compare(
  name,
  baselineArgs,
  subjectArgs,
  goal,
  { nodes = 1, extraEnv = {}, cjsBaselineArgs, beforeRound } = {},
) {
  if (ONLY && !ONLY.test(name)) return;
  const runEnv = { ...env, ...extraEnv };
  const sides = [baselineArgs, subjectArgs, ...(cjsBaselineArgs ? [cjsBaselineArgs] : [])];
  const wall = sides.map(() => []);
  const cpu = sides.map(() => []);
  const roundRatios = [];
  for (let round = 0; round < ROUNDS; round++) {
    beforeRound?.();
    // Every other round runs the sides in the opposite order.
    const order = sides.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    const results = hyperfine(
      order.map((i) => command(sides[i])),
      runEnv,
    );
    order.forEach((side, position) => {
      wall[side].push(...results[position].wall);
      cpu[side].push(results[position].cpu);
    });
    const roundMedian = (side) => median(results[order.indexOf(side)].wall);
    roundRatios.push(roundMedian(1) / roundMedian(0) / nodes);
  }
  const [base, subject, cjsBase] = wall.map(median);
  const ratio = subject / base / nodes;
  // A control row (no goal) compares two sides that should run alike: its distance from 1.00 is
  // how far this machine moves a ratio by itself.
  const verdict = goal === undefined ? '(control: 1.00 expected)' : ratio <= goal ? 'ok' : 'ABOVE GOAL';
  const target = goal === undefined ? '' : `; goal <= ${goal}`;
  // The verdict compares the ratio itself: one just above its goal (1.004 against 1.0) gets a
  // third decimal, so the line never reads "1.00 … ABOVE GOAL".
  const shown = ratio.toFixed(
    goal !== undefined && ratio > goal && ratio.toFixed(2) === goal.toFixed(2) ? 3 : 2,
  );
  const spread = `${Math.min(...roundRatios).toFixed(2)}–${Math.max(...roundRatios).toFixed(2)}`;
  // CPU time is less disturbed by other processes than wall time: shown as a cross-check.
  const cpuRatio = median(cpu[1]) / median(cpu[0]) / nodes;
  const cjs =
    cjsBase === undefined
      ? ''
      : `; vs the .cjs baseline (${cjsBase.toFixed(1)} ms) ${(subject / cjsBase / nodes).toFixed(2)}`;
  console.log(
    `${name.padEnd(46)} ${subject.toFixed(1).padStart(6)} ms vs ${base.toFixed(1).padStart(6)} ms` +
      `  ratio ${shown} (rounds ${spread}; cpu ${cpuRatio.toFixed(2)}${cjs}${target}) ${verdict}`,
  );
}

/** The single executable's rows: its start against the node it embeds, and its archive's size. */
function executableRows() {
  if (ONLY && !ONLY.test('executable')) return;
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const archive = fileURLToPath(new URL(`../release/${archiveName(version)}`, import.meta.url));
  if (!existsSync(archive) || archive.endsWith('.zip')) {
    console.log('the executable: skipped (no release/ archive for this platform; npm run build:release)');
    return;
  }
  const unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  execFileSync('tar', ['-xzf', archive, '-C', unpacked, 'tokencli']);
  const node26 = seaNode();
  const embedded = execFileSync(node26, ['--version'], { encoding: 'utf8' }).trim();
  // Where a file's pages sit in memory moves its start by up to a third here: the same bytes, copied
  // five times, started anywhere from 30 to 40 ms, and a file `tar` wrote starts later than a copy.
  // One file on each side would measure where they happen to sit. So each round lays both sides
  // down afresh, copied the way install.sh copies the executable into place, and the medians run
  // over as many placements as rounds, each side's written the same way.
  const laid = join(work, 'laid');
  const exe = join(laid, 'tokencli');
  const node26Laid = join(laid, 'node');
  const node26Copy = join(laid, 'node-copy');
  const sources = new Map([
    [exe, join(unpacked, 'tokencli')],
    [node26Laid, node26],
    [node26Copy, node26],
  ]);
  // Lays down the files a row runs (about 120 MB each), and only those, before each of its rounds.
  const layDown = (...files) => {
    rmSync(laid, { recursive: true, force: true });
    mkdirSync(laid);
    for (const file of files) execFileSync('cp', [sources.get(file), file]);
  };
  console.log(
    `the executable (node ${embedded} inside), against node ${embedded} running empty.mjs; both copied afresh for each round:`,
  );
  const node26Empty = [node26Laid, empty];
  // A user's cache directory as the executable's own users have it: one that only its runs wrote
  // to. The developer's may hold caches that the npm package wrote when run on the same Node 26 (the
  // same bundles and the same V8, so the executable takes them), and one such file moved a cached
  // `token` by 0.2 M instructions here. It is outside TMPDIR, where the launcher keeps no cache.
  const ownCacheEnv = { XDG_CACHE_HOME: join(work, 'cache-home'), TMPDIR: join(work, 'tmp') };
  mkdirSync(ownCacheEnv.TMPDIR);
  // Its first run writes what it would write in a user's home (nothing, when the run takes a path
  // the build's training took): the rows below measure the runs after it.
  execFileSync(join(unpacked, 'tokencli'), ['--profile', 'ci', 'token'], {
    env: { ...env, ...ownCacheEnv },
    stdio: 'ignore',
  });
  const relaid = { beforeRound: () => layDown(node26Laid, exe) };
  const warm = { ...relaid, extraEnv: ownCacheEnv };
  compare('executable: --profile ci token', node26Empty, [exe, '--profile', 'ci', 'token'], 1.0, warm);
  // A CI job's first runs: no cache of the user's (the launcher keeps none under TMPDIR, where this
  // home is), only the executable's own (scripts/release/train-code-cache.mjs).
  compare('executable: --profile ci token, fresh home', node26Empty, [exe, '--profile', 'ci', 'token'], 1.0, {
    ...relaid,
    extraEnv: { XDG_CACHE_HOME: join(work, 'fresh-cache-home') },
  });
  compare('executable: --version', node26Empty, [exe, '--version'], 1.0, warm);
  // The same node, byte for byte, in two copies laid down alike: what remains of the machine's
  // noise in such a ratio, against which the rows above are read.
  compare('executable: control, two copies of node26', node26Empty, [node26Copy, empty], undefined, {
    beforeRound: () => layDown(node26Laid, node26Copy),
  });
  layDown(exe);
  instructionRows(exe, node26, { ...env, ...ownCacheEnv });
  const mb = statSync(archive).size / 1e6;
  console.log(
    `${'executable: archive size'.padEnd(46)} ${mb.toFixed(1)} MB (${archiveName(version)}; goal <= 45 MB) ${mb <= 45 ? 'ok' : 'ABOVE GOAL'}`,
  );
}

/**
 * The executable's work beside node's own start, counted in instructions (bench/instructions.mjs):
 * what the wall-time rows above measure through the machine's noise, measured without it.
 */
function instructionRows(exe, node26, runEnv) {
  if (!canCountInstructions()) {
    console.log('executable: instructions: skipped (no valgrind; apt-get install valgrind)');
    return;
  }
  const dir = join(work, 'callgrind');
  const base = countInstructions([node26, empty], runEnv, dir);
  const millions = (n) => `${(n / 1e6).toFixed(1)} M`;
  console.log(
    `the same, in instructions (callgrind, main thread, V8's isolate set-up left out; medians of 3): node ${millions(base)}`,
  );
  for (const [name, args] of [
    ['executable: --version, instructions', [exe, '--version']],
    ['executable: --profile ci token, instructions', [exe, '--profile', 'ci', 'token']],
  ]) {
    const count = countInstructions(args, runEnv, dir);
    const more = count - base;
    console.log(
      `${name.padEnd(46)} ${millions(count).padStart(8)} vs ${millions(base)}  ${more < 0 ? '-' : '+'}${millions(Math.abs(more))}`,
    );
  }
}

try {
  // Fill the store once so `token` below is the cached path.
  const filled = spawnSync(node, [bin, '--profile', 'ci', 'token'], { env: fillEnv, encoding: 'utf8' });
  if (filled.status !== 0) throw new Error(`tokencli token failed (${filled.status}): ${filled.stderr}`);
  const token = filled.stdout.trim();
  if (KEYCHAIN_ONLY) {
    compare(
      '--profile ci token (cached, keychain)',
      [node, empty],
      [node, bin, '--profile', 'ci', 'token'],
      1.3,
      { cjsBaselineArgs: [node, emptyCjs] },
    );
  } else {
    // node:http as node's own module: `import … from 'node:http'` builds an ES module facade that
    // reads every export, and on Node 24 one of them loads undici (~45 ms on the development
    // machine), which would make any script look fast next to it.
    const fetchScript = join(work, 'info.mjs');
    const fetchSource = `const { request } = process.getBuiltinModule('node:http');
const url = new URL(${JSON.stringify(`${service.baseUrl}/v2/oauth/tokeninfo?client_id=demo-client`)});
request(url, { headers: { authorization: 'Bearer ' + ${JSON.stringify(token)} } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (c) => { body += c; });
  res.on('end', () => { process.stdout.write(JSON.stringify(JSON.parse(body), null, 2) + '\\n'); });
}).end();
`;
    writeFileSync(fetchScript, fetchSource);
    const fetchScriptCjs = join(work, 'info.cjs');
    writeFileSync(fetchScriptCjs, fetchSource);
    console.log(
      `node ${process.version}, hyperfine -N, ${ROUNDS} alternating rounds of ${RUNS} runs each, medians`,
    );
    const ci = { extraEnv: { TOKENCLI_PROFILE: 'ci' } };
    const cjs = { cjsBaselineArgs: [node, emptyCjs] };
    compare('TOKENCLI_PROFILE=ci token', [node, empty], [node, bin, 'token'], 1.2, { ...ci, ...cjs });
    compare('--profile ci token', [node, empty], [node, bin, '--profile', 'ci', 'token'], 1.2, cjs);
    compare(
      'token --profile ci --format header',
      [node, empty],
      [node, bin, 'token', '--profile', 'ci', '--format', 'header'],
      1.2,
      cjs,
    );
    compare(
      'token --profile ci --min-ttl 300',
      [node, empty],
      [node, bin, 'token', '--profile', 'ci', '--min-ttl', '300'],
      1.2,
      cjs,
    );
    compare(
      'exec --profile ci -- node empty.mjs (per node)',
      [node, empty],
      [node, bin, 'exec', '--profile', 'ci', '--', node, empty],
      1.2,
      { nodes: 2 },
    );
    compare(
      'info --profile ci --json (vs a minimal GET)',
      [node, fetchScript],
      [node, bin, 'info', '--profile', 'ci', '--json'],
      1.2,
      { cjsBaselineArgs: [node, fetchScriptCjs] },
    );
    compare('--version', [node, empty], [node, bin, '--version'], 1.1, cjs);
    executableRows();
  }
} finally {
  service.child.kill();
  rmSync(work, { recursive: true, force: true });
}
