/**
 * The GitHub Action (action.yml) run here as the runner would run it: each step's `run:` script
 * in bash with its `env:` (the `${{ … }}` expressions filled from the inputs and the earlier steps'
 * outputs), fresh GITHUB_OUTPUT and GITHUB_ENV files, against `tokencli serve`, with this checkout's
 * bin/tokencli.js (or TOKENCLI_BINARY) through the action's `tokencli-path` input; and the default
 * install, the release executable, from a local server over release/ (`npm run build:release`).
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, BINARY, cleanEnv, type ServeHandle, startServe, tempDir } from '../helpers/cli.js';
import { expectMode } from '../helpers/file-modes.js';
import { opensslMissing, selfSignedCertificate } from '../helpers/openssl.js';
import {
  fakeRelease,
  INSTALL_TOOLS,
  pathWith,
  serveRelease,
  serveTlsFront,
} from '../helpers/release-server.js';
import { DEMO } from './env.js';

const root = resolve(import.meta.dirname, '../..');
const actionText = readFileSync(join(root, 'action.yml'), 'utf8');

interface Step {
  id: string;
  shell: string;
  env: Record<string, string>;
  run: string;
}

interface Action {
  inputs: Record<string, { required: boolean; default?: string }>;
  outputs: Record<string, string>;
  steps: Step[];
}

/** A YAML scalar as action.yml writes them: plain, or in double quotes without escapes. */
function scalar(text: string): string {
  const trimmed = text.trim();
  return trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

/**
 * Reads the subset of YAML action.yml is written in (block mappings, one list of steps, literal
 * `run: |` blocks); anything else in the places read here fails the test rather than being guessed.
 */
function readAction(text: string): Action {
  const lines = text.split('\n');
  const action: Action = { inputs: {}, outputs: {}, steps: [] };
  const section = (name: string) => {
    const start = lines.indexOf(`${name}:`);
    if (start < 0) throw new Error(`action.yml has no ${name}:`);
    const end = lines.findIndex((line, i) => i > start && /^\S/.test(line));
    return lines.slice(start + 1, end < 0 ? undefined : end);
  };
  let input = '';
  for (const line of section('inputs')) {
    const name = /^ {2}([\w-]+):$/.exec(line)?.[1];
    if (name) {
      input = name;
      action.inputs[name] = { required: false };
      continue;
    }
    const field = /^ {4}(required|default): (.*)$/.exec(line);
    const entry = action.inputs[input];
    if (field && entry) {
      if (field[1] === 'required') entry.required = field[2] === 'true';
      else entry.default = scalar(field[2] ?? '');
    }
  }
  let output = '';
  for (const line of section('outputs')) {
    output = /^ {2}([\w-]+):$/.exec(line)?.[1] ?? output;
    const value = /^ {4}value: (.*)$/.exec(line)?.[1];
    if (value) action.outputs[output] = value;
  }
  const runs = section('runs');
  expect(runs.slice(0, 2)).toEqual(['  using: composite', '  steps:']);
  let step: Step | undefined;
  let block: 'env' | 'run' | undefined;
  for (const line of runs.slice(2)) {
    const id = /^ {4}- id: ([\w-]+)$/.exec(line)?.[1];
    if (id) {
      step = { id, shell: '', env: {}, run: '' };
      action.steps.push(step);
      block = undefined;
      continue;
    }
    if (!step) throw new Error(`a step must start with "- id:": ${line}`);
    if (block === 'run' && (line.startsWith('        ') || line === '')) {
      step.run += `${line.slice(8)}\n`;
      continue;
    }
    const envEntry = /^ {8}([A-Z_]+): (.*)$/.exec(line);
    if (block === 'env' && envEntry) {
      step.env[envEntry[1] ?? ''] = scalar(envEntry[2] ?? '');
      continue;
    }
    const key = /^ {6}(\w+):(?: (.*))?$/.exec(line);
    if (key?.[1] === 'shell') step.shell = key[2] ?? '';
    else if (key?.[1] === 'env' && key[2] === undefined) block = 'env';
    else if (key?.[1] === 'run' && key[2] === '|') block = 'run';
    else throw new Error(`unexpected line in a step: ${line}`);
  }
  return action;
}

/** GitHub's `${{ inputs.x }}` and `${{ steps.id.outputs.x }}`, the only expressions used. */
function evaluate(
  value: string,
  inputs: Record<string, string>,
  outputs: Record<string, Record<string, string>>,
) {
  return value.replace(/\$\{\{ *([\w.-]+) *\}\}/g, (_whole, path: string) => {
    const [kind, name, , output] = path.split('.');
    if (kind === 'inputs' && name !== undefined) return inputs[name] ?? '';
    if (kind === 'steps' && name !== undefined && output !== undefined) return outputs[name]?.[output] ?? '';
    throw new Error(`unsupported expression: ${path}`);
  });
}

/** `name=value` lines, as GITHUB_OUTPUT and GITHUB_ENV take them (no multi-line values here). */
function keyValues(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n').filter(Boolean)) {
    const at = line.indexOf('=');
    expect(at, `a name=value line: ${line}`).toBeGreaterThan(0);
    values[line.slice(0, at)] = line.slice(at + 1);
  }
  return values;
}

interface ActionRun {
  status: number | null;
  /** Each step's stdout and stderr as written, in step order: what the runner would log. */
  log: string;
  outputs: Record<string, Record<string, string>>;
  actionOutputs: Record<string, string>;
  githubEnv: Record<string, string>;
  /** Every file the run left in its scratch directories (runner temp, config, workspace). */
  files: string[];
}

/** The steps run with `baseEnv` as the job's environment (a variable undefined: unset there). */
function runAction(
  action: Action,
  given: Record<string, string>,
  baseEnv: Record<string, string | undefined>,
): ActionRun {
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    const value = given[name] ?? input.default;
    // A test must give each required input; given empty it stays so, as a secret that is not set
    // reaches an action (the runner enforces no `required`).
    if (input.required && value === undefined) throw new Error(`input ${name} is required`);
    inputs[name] = value ?? '';
  }
  // A RUNNER_TEMP given is an earlier run's: the same job using the action again.
  const runnerTemp = baseEnv.RUNNER_TEMP ?? tempDir('tokencli-action-runner-');
  const githubEnvFile = join(runnerTemp, 'github-env');
  writeFileSync(githubEnvFile, '');
  const outputs: Record<string, Record<string, string>> = {};
  let log = '';
  let status: number | null = 0;
  for (const step of action.steps) {
    expect(step.shell).toBe('bash');
    const outputFile = join(runnerTemp, `output-${step.id}`);
    writeFileSync(outputFile, '');
    const env: Record<string, string | undefined> = {
      ...baseEnv,
      RUNNER_TEMP: runnerTemp,
      GITHUB_ACTION_PATH: root,
      GITHUB_OUTPUT: outputFile,
      GITHUB_ENV: githubEnvFile,
    };
    for (const [name, value] of Object.entries(step.env)) env[name] = evaluate(value, inputs, outputs);
    // As the runner runs `shell: bash`: the script in a file, `bash --noprofile --norc -eo pipefail
    // {0}`. stderr joins stdout, so the log keeps the order in which the lines were written.
    const scriptFile = join(tempDir('tokencli-action-step-'), `${step.id}.sh`);
    writeFileSync(scriptFile, `exec 2>&1\n${step.run}`);
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', scriptFile], {
      env: cleanEnv(env),
      encoding: 'utf8',
    });
    log += result.stdout;
    outputs[step.id] = keyValues(readFileSync(outputFile, 'utf8'));
    status = result.status;
    if (status !== 0) break;
  }
  const actionOutputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(action.outputs))
    actionOutputs[name] = evaluate(value, inputs, outputs);
  return {
    status,
    log,
    outputs,
    actionOutputs,
    githubEnv: keyValues(readFileSync(githubEnvFile, 'utf8')),
    files: [runnerTemp, baseEnv.TOKENCLI_CONFIG_DIR ?? '', baseEnv.HOME ?? ''].flatMap(listFiles),
  };
}

function listFiles(dir: string): string[] {
  if (dir === '') return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

const action = readAction(actionText);
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
/** This release's version in a regular expression (a prerelease's hyphen and dots, literally). */
const versionPattern = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const releaseArchive =
  process.platform === 'linux' && process.arch === 'x64'
    ? join(root, 'release', `tokencli-${version}-linux-x64.tar.gz`)
    : '';
let service: ServeHandle;
beforeAll(async () => {
  service = await startServe();
});
afterAll(() => service.stop());

/** What a workflow passes: its vars and secrets, and this checkout's tokencli. */
function workflowInputs(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'base-url': service.baseUrl,
    'client-id': DEMO.clientId,
    'client-secret': DEMO.clientSecret,
    email: DEMO.email,
    password: DEMO.password,
    'tokencli-path': BINARY ?? BIN,
    ...extra,
  };
}

/** A runner's environment: its own HOME and config directory, so every file it writes is seen. */
function runnerEnv(): Record<string, string> {
  return { HOME: tempDir('tokencli-action-home-'), TOKENCLI_CONFIG_DIR: tempDir('tokencli-action-config-') };
}

// On Windows the runner runs `shell: bash` steps with Git's bash and Windows paths, which these
// runs (bash from PATH, fake programs as #! scripts, ':'-separated PATHs) do not reproduce.
describe.skipIf(process.platform === 'win32')(
  'action.yml (skipped on Windows: its bash steps run there only as a real runner runs them)',
  () => {
    test('inputs reach the scripts only through env, and the version default is this release', () => {
      for (const step of action.steps) expect(step.run, step.id).not.toContain('${{');
      const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
      expect(action.inputs.version?.default).toBe(pkg.version);
      expect(Object.keys(action.inputs)).toEqual(
        expect.arrayContaining([
          'base-url',
          'client-id',
          'client-secret',
          'email',
          'password',
          'profile',
          'min-ttl',
        ]),
      );
    });

    test('the token reaches the output, masked before any line carries it; secrets reach no file', () => {
      const env = runnerEnv();
      const run = runAction(action, workflowInputs(), env);
      expect(run.status, run.log).toBe(0);
      const token = run.actionOutputs['access-token'] ?? '';
      expect(token.length).toBeGreaterThan(20);
      expect(Date.parse(run.actionOutputs['expires-at'] ?? '')).toBeGreaterThan(Date.now());

      const lines = run.log.split('\n');
      const mask = lines.indexOf(`::add-mask::${token}`);
      expect(mask).toBeGreaterThanOrEqual(0);
      expect(lines.findIndex((line) => line.includes(token))).toBe(mask);

      expect(run.githubEnv).toEqual({});
      for (const file of run.files) {
        const content = readFileSync(file, 'utf8');
        expect(content, file).not.toContain(DEMO.clientSecret);
        expect(content, file).not.toContain(DEMO.password);
      }
      expect(run.log).not.toContain(DEMO.clientSecret);
      expect(run.log).not.toContain(DEMO.password);
    });

    test('export-env: true gives later steps the token in TOKENCLI_ACCESS_TOKEN', async () => {
      const run = runAction(action, workflowInputs({ 'export-env': 'true' }), runnerEnv());
      expect(run.status, run.log).toBe(0);
      expect(run.githubEnv).toEqual({
        TOKENCLI_ACCESS_TOKEN: run.actionOutputs['access-token'],
        TOKENCLI_TOKEN_EXPIRES_AT: run.actionOutputs['expires-at'],
      });
      const info = await fetch(`${service.baseUrl}/v2/oauth/tokeninfo?client_id=${DEMO.clientId}`, {
        headers: { authorization: `Bearer ${run.githubEnv.TOKENCLI_ACCESS_TOKEN}` },
      });
      expect(info.status).toBe(200);
      expect(((await info.json()) as { email: string }).email).toBe(DEMO.email);
    });

    test('a refused password fails the step with tokencli exit 3, and nothing is output or exported', () => {
      const run = runAction(
        action,
        workflowInputs({ password: 'wrong-password', 'export-env': 'true' }),
        runnerEnv(),
      );
      expect(run.status).toBe(3);
      expect(run.log).toMatch(/^error: .*403/m);
      // The workflow's summary shows why, not only the exit code.
      expect(run.log).toMatch(/^::error::tokencli token failed \(exit 3\): .*403.*$/m);
      expect(run.outputs.token).toEqual({});
      expect(run.githubEnv).toEqual({});
      expect(run.log).not.toContain('wrong-password');
    });

    test('empty inputs (a secret not set, a pull request from a fork) are named in the failure’s annotation', () => {
      const run = runAction(action, workflowInputs({ 'client-secret': '', password: '' }), runnerEnv());
      expect(run.status).toBe(2);
      expect(run.log).toMatch(
        /^::error::tokencli token failed \(exit 2\): no client secret[^\n]*; empty inputs: client-secret, password \(a secret or variable that is not set, or a pull request from a fork, which gets no secrets\)$/m,
      );
      // Said only when the step fails: a profile may hold what an input leaves out.
      const refused = runAction(action, workflowInputs({ password: 'wrong-password' }), runnerEnv());
      expect(refused.status).toBe(3);
      expect(refused.log).not.toContain('empty inputs');
    });

    test.runIf(existsSync(releaseArchive))(
      'by default it installs the release executable, checked against SHA256SUMS, on a runner without node',
      { timeout: 120_000 },
      async () => {
        const server = await serveRelease(join(root, 'release'));
        try {
          // What the steps need from the runner, and no node.
          const path = pathWith([...INSTALL_TOOLS, 'bash', 'dirname', 'curl', 'sha256sum']);
          const run = runAction(action, workflowInputs({ 'tokencli-path': '', 'download-url': server.url }), {
            ...runnerEnv(),
            PATH: path,
          });
          expect(run.status, run.log).toBe(0);
          expect(run.outputs.install?.bin).toMatch(new RegExp(`/tokencli-${versionPattern}/bin/tokencli$`));
          expect((run.actionOutputs['access-token'] ?? '').length).toBeGreaterThan(20);
          expect(server.requests().map((r) => r.path)).toEqual([
            '/SHA256SUMS',
            `/${basename(releaseArchive)}`,
          ]);
        } finally {
          await server.close();
        }
      },
    );
    test.skipIf(existsSync(releaseArchive))(
      'the default install of the release executable (skipped: needs release/ from `npm run build:release` on linux-x64)',
      () => {},
    );

    test('a tokencli-path that is not an executable file is refused, annotated, before any token is asked for', () => {
      for (const path of [
        join(tempDir('tokencli-action-none-'), 'tokencli'),
        tempDir('tokencli-action-dir-'),
      ]) {
        const run = runAction(action, workflowInputs({ 'tokencli-path': path }), runnerEnv());
        expect(run.status, run.log).toBe(2);
        expect(run.log).toBe(
          `::error::tokencli-path ${path} is not an executable file or a program on PATH\n`,
        );
      }
      expect(service.logs()).not.toContain('tokencli-action-none-');
    });

    test('a tokencli-path that fails, or is another program, is refused with 2 before the token step runs it', () => {
      const program = (name: string, body: string) => {
        const path = join(tempDir('tokencli-action-other-'), name);
        writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
        return path;
      };
      // Given the secrets, it would write them here.
      const witness = join(tempDir('tokencli-action-witness-'), 'ran');
      const failing = program('tokencli', 'echo "it broke" >&2; exit 1');
      const other = program(
        'true',
        `case $1 in --version) printf 'true (GNU coreutils) 9.1\\033[31m\\nCopyright\\n' ;; *) env > ${witness} ;; esac`,
      );
      // A checkout's bin/tokencli.js on a runner without node: env says node is not there (127).
      const checkout = program(
        'tokencli.js',
        `echo "/usr/bin/env: 'node': No such file or directory" >&2; exit 127`,
      );
      const runs = [failing, other, checkout].map((path) =>
        runAction(action, workflowInputs({ 'tokencli-path': path }), runnerEnv()),
      );
      for (const run of runs) {
        expect(run.status, run.log).toBe(2);
        expect(run.outputs.install).toEqual({});
        expect(run.outputs.token).toBeUndefined();
      }
      expect(runs[0]?.log).toMatch(
        new RegExp(`^::error::running ${failing} --version failed \\(exit 1\\): it broke$`, 'm'),
      );
      expect(runs[1]?.log).toMatch(
        new RegExp(
          `^::error::tokencli-path ${other} is not tokencli: its --version printed 'true \\(GNU coreutils\\) 9\\.1'$`,
          'm',
        ),
      );
      expect(runs[2]?.log).toMatch(
        new RegExp(
          `^::error::running ${checkout} --version failed \\(exit 127\\): /usr/bin/env: 'node': No such file or directory; a checkout's bin/tokencli\\.js runs with node on the runner \\(actions/setup-node\\), after npm ci and npm run build$`,
          'm',
        ),
      );
      expect(existsSync(witness)).toBe(false);
    });

    test('with store: file a stored token is the profile’s: another identity in the job takes its own profile', () => {
      const env = runnerEnv();
      const first = runAction(action, workflowInputs({ store: 'file' }), env);
      expect(first.status, first.log).toBe(0);
      const stranger = { email: 'nobody@example.com', password: 'wrong-password', store: 'file' };
      // The same profile: the stored token, as action.yml's store input says (a wrong password
      // would be refused, were it sent).
      const same = runAction(action, workflowInputs(stranger), env);
      expect(same.status, same.log).toBe(0);
      expect(same.actionOutputs['access-token']).toBe(first.actionOutputs['access-token']);
      // Its own profile: its own credentials, refused here.
      const own = runAction(action, workflowInputs({ ...stranger, profile: 'second' }), env);
      expect(own.status, own.log).toBe(3);
      expect(own.outputs.token).toEqual({});
    });

    test('a failure of tokencli token is annotated in the inputs’ names, not the variables the step set', () => {
      const cases: [Record<string, string>, RegExp][] = [
        [
          { 'base-url': 'http://192.0.2.1' },
          /\(exit 2\): the input base-url: plain http:\/\/ is refused for 192\.0\.2\.1;/,
        ],
        [{ store: 'bogus' }, /\(exit 2\): the input store: unknown store "bogus"$/],
        [
          { store: 'file', 'min-ttl': 'soon' },
          /\(exit 2\): the input min-ttl: "soon" is not a whole number of seconds$/,
        ],
      ];
      for (const [inputs, annotation] of cases) {
        const run = runAction(action, workflowInputs(inputs), runnerEnv());
        expect(run.status, run.log).toBe(2);
        const line = run.log.split('\n').find((l) => l.startsWith('::error::')) ?? '';
        expect(line).toMatch(/^::error::tokencli token failed /);
        expect(line).toMatch(annotation);
        expect(line).not.toMatch(/TOKENCLI_|--min-ttl/);
      }
    });

    test('a release that cannot be installed fails the install step with install.sh’s reason annotated', async () => {
      const server = await serveRelease(tempDir('tokencli-action-empty-release-'));
      try {
        const inputs = workflowInputs({ 'tokencli-path': '', 'download-url': server.url });
        const run = runAction(action, inputs, runnerEnv());
        expect(run.status, run.log).toBe(1);
        expect(run.log).toMatch(
          /^tokencli install: cannot download http:\/\/\S+\/SHA256SUMS \(curl: .*404.*\): no release there; check TOKENCLI_DOWNLOAD_URL, the base URL of a release's files$/m,
        );
        // The same reason in the annotation, in the input's name.
        expect(run.log).toMatch(
          new RegExp(
            `^::error::installing tokencli ${versionPattern} failed \\(exit 1\\): tokencli install: cannot download \\S+/SHA256SUMS \\(curl: .*404.*\\): no release there; check the input download-url, the base URL of a release's files$`,
            'm',
          ),
        );
        expect(run.outputs.install).toEqual({});
        // Nothing but the runner's own files: no install, no held stderr.
        expect(run.files.filter((file) => !/\/(github-env|output-[\w-]+)$/.test(file))).toEqual([]);
      } finally {
        await server.close();
      }
    });

    test('a version given as its tag installs that release; the log keeps only the install line', async () => {
      const server = await serveRelease(fakeRelease('9.8.7').dir);
      try {
        const inputs = workflowInputs({ 'tokencli-path': '', 'download-url': server.url, version: 'v9.8.7' });
        const run = runAction(action, inputs, runnerEnv());
        expect(run.outputs.install?.bin, run.log).toMatch(/\/tokencli-9\.8\.7\/bin\/tokencli$/);
        expect(run.log).toMatch(/^tokencli 9\.8\.7 installed: \S+\/tokencli-9\.8\.7\/bin\/tokencli$/m);
        // install.sh's advice to put the directory on PATH: the action runs tokencli by its path.
        expect(run.log).not.toContain('PATH');
      } finally {
        await server.close();
      }
    });

    test('install: npm on a runner without npm is refused with what it needs', () => {
      const path = pathWith(['bash', 'dirname']);
      const run = runAction(action, workflowInputs({ 'tokencli-path': '', install: 'npm' }), {
        ...runnerEnv(),
        PATH: path,
      });
      expect(run.status, run.log).toBe(2);
      expect(run.log).toContain(
        '::error::install: npm needs Node and npm on the runner (actions/setup-node)',
      );
    });

    test('a tokencli-path that is a bare name is the program of that name on PATH', () => {
      const tools = tempDir('tokencli-action-path-');
      symlinkSync(BINARY ?? BIN, join(tools, 'tokencli'));
      const run = runAction(action, workflowInputs({ 'tokencli-path': 'tokencli' }), {
        ...runnerEnv(),
        PATH: `${tools}${delimiter}${process.env.PATH ?? ''}`,
      });
      expect(run.status, run.log).toBe(0);
      expect(run.outputs.install?.bin).toBe(join(tools, 'tokencli'));
      expect((run.actionOutputs['access-token'] ?? '').length).toBeGreaterThan(20);
    });

    test('the reason annotated: tokencli’s error line, npm’s first telling line, else the last line', () => {
      const file = join(tempDir('tokencli-action-reason-'), 'stderr');
      const of = (stderr: string) =>
        spawnSync(
          'bash',
          [
            '-c',
            `. "${join(root, 'scripts/action/failure.sh')}"; printf '%s' "$1" > "$2"; failure_reason "$2"`,
            'bash',
            stderr,
            file,
          ],
          { encoding: 'utf8' },
        ).stdout;
      expect(of('warning: a\nerror: the service refused the password\nhint: check it\n')).toBe(
        'the service refused the password',
      );
      const npm = [
        'npm error code E404',
        'npm error 404 Not Found - GET https://registry.npmjs.org/tokencli - Not found',
        'npm error 404',
        'npm error A complete log of this run can be found in: /home/runner/.npm/_logs/x-debug-0.log',
        '',
      ].join('\n');
      expect(of(npm)).toBe('npm error 404 Not Found - GET https://registry.npmjs.org/tokencli - Not found');
      expect(of('\ntokencli install: checksum mismatch for x\n\n')).toBe(
        'tokencli install: checksum mismatch for x',
      );
      // A tokencli-path that crashed (a checkout never built): the exception, not node's version line.
      const crash = [
        'node:internal/modules/cjs/loader:1228',
        '  throw err;',
        '',
        "Error: ENOENT: no such file or directory, open '/w/dist/cli-bundle/light-argv.cjs'",
        '    at Object.openSync (node:fs:573:18) {',
        '  errno: -2,',
        '}',
        '',
        'Node.js v20.20.2',
        '',
      ].join('\n');
      expect(of(crash)).toBe(
        "Error: ENOENT: no such file or directory, open '/w/dist/cli-bundle/light-argv.cjs'",
      );
      expect(of('TypeError [ERR_INVALID_ARG_TYPE]: bad\nNode.js v26.1.0\n')).toBe(
        'TypeError [ERR_INVALID_ARG_TYPE]: bad',
      );
      expect(of('tokencli install: cannot unpack x (tar: Error is not recoverable: exiting now)\n')).toBe(
        'tokencli install: cannot unpack x (tar: Error is not recoverable: exiting now)',
      );
    });

    test('annotations escape what GitHub reads as their end: %, CR and LF', () => {
      const script = `. "${join(root, 'scripts/action/failure.sh')}"; error_annotation "$1"`;
      const result = spawnSync('bash', ['-c', script, 'bash', '50% done\r\nnext'], { encoding: 'utf8' });
      expect(result.stdout).toBe('::error::50%25 done%0D%0Anext\n');
    });

    /** A tokencli-path that is a script: `--version` says 0.1.0, `token` prints `tokenOutput`. */
    function fakeTokencli(tokenOutput: string): string {
      const path = join(tempDir('tokencli-action-fake-'), 'tokencli');
      writeFileSync(
        path,
        `#!/bin/sh\ncase $1 in\n--version) echo 0.1.0 ;;\ntoken) cat <<'EOF'\n${tokenOutput}\nEOF\n;;\nesac\n`,
        { mode: 0o755 },
      );
      return path;
    }

    test('a token with a % is masked as the runner reads the mask (%25), before any line carries it', () => {
      const token = 'SeCrEt%25TOKEN%0Avalue';
      const path = fakeTokencli(
        `TOKENCLI_ACCESS_TOKEN='${token}'\nTOKENCLI_TOKEN_EXPIRES_AT='2030-01-01T00:00:00Z'`,
      );
      const run = runAction(action, workflowInputs({ 'tokencli-path': path }), runnerEnv());
      expect(run.status, run.log).toBe(0);
      expect(run.actionOutputs['access-token']).toBe(token);
      const lines = run.log.split('\n');
      const mask = lines.indexOf('::add-mask::SeCrEt%2525TOKEN%250Avalue');
      expect(mask, run.log).toBeGreaterThanOrEqual(0);
      expect(lines.findIndex((line) => line.includes(token))).toBe(-1);
    });

    test('with xtrace in the job’s SHELLOPTS the token is still masked before any line carries it', () => {
      const run = runAction(action, workflowInputs(), { ...runnerEnv(), SHELLOPTS: 'xtrace' });
      expect(run.status, run.log).toBe(0);
      // The trace is on: the install step's lines show it.
      expect(run.log).toMatch(/^\+ /m);
      const token = run.actionOutputs['access-token'] ?? '';
      const lines = run.log.split('\n');
      expect(lines.findIndex((line) => line.includes(token))).toBe(lines.indexOf(`::add-mask::${token}`));
    });

    // A self-hosted runner behind a proxy that inspects TLS: node trusts its own roots, not the
    // system's, and the action takes no --ca-file.
    test.skipIf(opensslMissing !== undefined)(
      "a certificate tokencli does not trust is annotated with the job's way to give a CA, which then works",
      async () => {
        const tls = selfSignedCertificate('/CN=127.0.0.1', ['-addext', 'subjectAltName=IP:127.0.0.1']);
        const front = await serveTlsFront(service.baseUrl, tls);
        try {
          const inputs = workflowInputs({ 'base-url': front.url });
          const refused = runAction(action, inputs, { ...runnerEnv(), NODE_EXTRA_CA_CERTS: undefined });
          expect(refused.status, refused.log).toBe(5);
          expect(refused.log).toMatch(
            /^::error::tokencli token failed \(exit 5\): the TLS certificate of https:\/\/127\.0\.0\.1:\d+ is not trusted \([A-Z_]+\); a CA of your network's own \(a proxy that inspects TLS\) goes in the job's env as NODE_EXTRA_CA_CERTS, a PEM file$/m,
          );
          const trusted = runAction(action, inputs, { ...runnerEnv(), NODE_EXTRA_CA_CERTS: tls.certFile });
          expect(trusted.status, trusted.log).toBe(0);
          expect(trusted.actionOutputs['access-token']).toMatch(/^\S{20,}$/);
        } finally {
          await front.close();
        }
      },
    );

    test('a tokencli-path whose token output is not the assignments is refused, and never run as code', () => {
      const witness = join(tempDir('tokencli-action-witness-'), 'ran');
      for (const output of [
        '',
        'hello world',
        `touch ${witness}`,
        "TOKENCLI_ACCESS_TOKEN='a b'\nTOKENCLI_TOKEN_EXPIRES_AT='x'",
      ]) {
        const path = fakeTokencli(output);
        const run = runAction(action, workflowInputs({ 'tokencli-path': path }), runnerEnv());
        expect(run.status, run.log).toBe(1);
        expect(run.log).toContain(
          `::error::${path} token --format env printed no token assignments (is it tokencli 0.1.0 or later?)\n`,
        );
        expect(run.outputs.token).toEqual({});
      }
      expect(existsSync(witness)).toBe(false);
    });

    test('a tokencli-path that is a bare name not on PATH is refused as such', () => {
      const run = runAction(action, workflowInputs({ 'tokencli-path': 'tokencli-nowhere' }), runnerEnv());
      expect(run.status, run.log).toBe(2);
      expect(run.log).toBe(
        '::error::tokencli-path tokencli-nowhere is not a program on PATH (a file in the workspace is ./tokencli-nowhere)\n',
      );
    });

    test('a download-url over plain http to another machine is refused, annotated in the inputs’ names, before any download', () => {
      const inputs = workflowInputs({ 'tokencli-path': '', 'download-url': 'http://192.0.2.1:8080/mirror' });
      const run = runAction(action, inputs, runnerEnv());
      expect(run.status, run.log).toBe(1);
      // install.sh's own line in the log; the annotation, which the workflow's author reads first,
      // names the input they set.
      expect(run.log).toMatch(
        /^tokencli install: TOKENCLI_DOWNLOAD_URL: plain http:\/\/ is refused for a host other than this machine/m,
      );
      expect(run.log).toMatch(
        new RegExp(
          `^::error::installing tokencli ${versionPattern} failed \\(exit 1\\): tokencli install: the input download-url: plain http:// is refused for a host other than this machine`,
          'm',
        ),
      );
      expect(run.log).not.toMatch(/^::error::.*TOKENCLI_/m);
    });

    test('a version the download-url holds no release of is annotated in the inputs’ names', async () => {
      const server = await serveRelease(fakeRelease('9.8.7').dir);
      try {
        const inputs = workflowInputs({ 'tokencli-path': '', 'download-url': server.url, version: '9.8.6' });
        const run = runAction(action, inputs, runnerEnv());
        expect(run.status, run.log).toBe(1);
        expect(run.log).toMatch(
          /^::error::installing tokencli 9\.8\.6 failed \(exit 1\): tokencli install: .* set the input download-url and the input version to the same release; nothing installed$/m,
        );
      } finally {
        await server.close();
      }
    });

    test('used again in the same job, the release installed before is not downloaded again', async () => {
      const server = await serveRelease(fakeRelease('9.8.7').dir);
      try {
        const env = { ...runnerEnv(), RUNNER_TEMP: tempDir('tokencli-action-runner-') };
        const inputs = workflowInputs({ 'tokencli-path': '', 'download-url': server.url, version: '9.8.7' });
        const first = runAction(action, inputs, env);
        expect(first.outputs.install?.bin, first.log).toMatch(/\/tokencli-9\.8\.7\/bin\/tokencli$/);
        const again = runAction(action, inputs, env);
        expect(again.log).toMatch(
          /^tokencli 9\.8\.7 already installed: \S+\/tokencli-9\.8\.7\/bin\/tokencli$/m,
        );
        expect(again.outputs.install?.bin).toBe(first.outputs.install?.bin);
        expect(server.requests().map((r) => r.path)).toEqual([
          '/SHA256SUMS',
          expect.stringMatching(/\.tar\.gz$/),
        ]);
      } finally {
        await server.close();
      }
    });

    test('outside a runner (no RUNNER_TEMP), a tokencli already in the shared temporary directory is not taken for an earlier install', async () => {
      const server = await serveRelease(fakeRelease('9.8.7').dir);
      try {
        // What another user could put in /tmp before the job: a tokencli that says the version.
        const tmp = tempDir('tokencli-action-tmp-');
        const planted = join(tmp, 'tokencli-9.8.7', 'bin');
        mkdirSync(planted, { recursive: true });
        writeFileSync(join(planted, 'tokencli'), '#!/bin/sh\necho 9.8.7\n', { mode: 0o755 });
        const outputFile = join(tempDir('tokencli-action-output-'), 'output');
        writeFileSync(outputFile, '');
        const run = spawnSync('bash', [join(root, 'scripts', 'action', 'install.sh')], {
          env: cleanEnv({
            ...runnerEnv(),
            RUNNER_TEMP: undefined,
            TMPDIR: tmp,
            GITHUB_OUTPUT: outputFile,
            TOKENCLI_VERSION: '9.8.7',
            TOKENCLI_DOWNLOAD_URL: server.url,
          }),
          encoding: 'utf8',
        });
        expect(run.status, run.stderr).toBe(0);
        expect(run.stderr).not.toContain('already installed');
        const bin = keyValues(readFileSync(outputFile, 'utf8')).bin ?? '';
        expect(bin).toMatch(/\/tokencli-action\.[^/]+\/tokencli-9\.8\.7\/bin\/tokencli$/);
        expectMode(dirname(dirname(dirname(bin))), 0o700);
        expect(server.requests().map((r) => r.path)).toEqual([
          '/SHA256SUMS',
          expect.stringMatching(/\.tar\.gz$/),
        ]);
      } finally {
        await server.close();
      }
    });

    test('an export-env other than true or false is refused before any token is asked for', () => {
      for (const value of ['True', 'yes', '1', '']) {
        const run = runAction(action, workflowInputs({ 'export-env': value }), runnerEnv());
        expect(run.status, value).toBe(2);
        expect(run.log).toContain(`::error::export-env must be true or false, not '${value}'`);
        expect(run.outputs.token).toEqual({});
        expect(run.githubEnv).toEqual({});
      }
    });

    test('an install other than binary or npm is refused', () => {
      const run = runAction(action, workflowInputs({ 'tokencli-path': '', install: 'pip' }), runnerEnv());
      expect(run.status).toBe(2);
      expect(run.log).toContain('::error::install must be binary or npm');
    });

    test('a version that is not an exact release is refused before anything is installed', () => {
      const run = runAction(action, workflowInputs({ 'tokencli-path': '', version: 'latest' }), runnerEnv());
      expect(run.status).toBe(2);
      expect(run.log).toContain(
        "::error::version must be an exact tokencli version such as 0.1.0, not 'latest'",
      );
      const semicolon = runAction(
        action,
        workflowInputs({ 'tokencli-path': '', version: '1.0.0;id' }),
        runnerEnv(),
      );
      expect(semicolon.status).toBe(2);
    });

    /** A directory holding an `npm` that installs, into its --prefix, a tokencli saying it is `says`. */
    function fakeNpm(says: string): string {
      const dir = tempDir('tokencli-action-npm-');
      writeFileSync(
        join(dir, 'npm'),
        `#!/bin/sh\necho "$@" >> "${join(dir, 'calls')}"\nwhile [ "$1" != --prefix ]; do shift; done\nmkdir -p "$2/node_modules/.bin"\nprintf '#!/bin/sh\\necho ${says}\\n' > "$2/node_modules/.bin/tokencli"\nchmod 755 "$2/node_modules/.bin/tokencli"\n`,
        { mode: 0o755 },
      );
      return dir;
    }

    test('a version npm would read as a range is refused before npm is run', () => {
      const npm = fakeNpm('0.1.7');
      for (const range of ['0.1', '0.1.x', '^0.1.0', '1', '0.1.0+build.5', '0.1.0 || 0.1.7']) {
        const run = runAction(
          action,
          workflowInputs({ 'tokencli-path': '', install: 'npm', version: range }),
          {
            ...runnerEnv(),
            PATH: `${npm}:${process.env.PATH}`,
          },
        );
        expect(run.status, range).toBe(2);
        expect(run.log).toContain(
          `::error::version must be an exact tokencli version such as 0.1.0, not '${range}'`,
        );
      }
      expect(existsSync(join(npm, 'calls'))).toBe(false);
    });

    test('a tokencli installed that is not the version asked for is refused before the token step', () => {
      const run = runAction(
        action,
        workflowInputs({ 'tokencli-path': '', install: 'npm', version: '0.1.0' }),
        {
          ...runnerEnv(),
          PATH: `${fakeNpm('0.1.7')}:${process.env.PATH}`,
        },
      );
      expect(run.status, run.log).toBe(1);
      expect(run.log).toContain(
        "::error::the tokencli installed for version 0.1.0 says it is '0.1.7'; nothing was run with the secrets",
      );
      expect(run.outputs.token).toBeUndefined();
    });
  },
);
