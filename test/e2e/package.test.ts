/**
 * `npm pack` yields a package that installs into an empty directory and works there: what
 * `npx tokencli …` will run once published. Uses the dist/ built by `pretest`; packing runs with
 * --ignore-scripts so `prepack` does not rebuild dist/ under the other tests' feet.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test } from 'vitest';
import { cleanEnv, tempDir } from '../helpers/cli.js';
import { isAddress, linkTargets } from '../helpers/markdown.js';
import { otherNpms } from '../helpers/other-npms.js';
import { DEMO } from './env.js';

const root = resolve(import.meta.dirname, '../..');
const npmQuiet = { npm_config_audit: 'false', npm_config_fund: 'false' };

/** `npm pack` of the checkout into `work` (its dist/ as built): the tarball's path and its files. */
function pack(work: string): { tarball: string; files: string[] } {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: root,
      env: cleanEnv({ npm_config_loglevel: 'error', ...npmQuiet }),
      encoding: 'utf8',
    }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(work, packed[0]?.filename ?? ''), files: packed[0]?.files.map((f) => f.path) ?? [] };
}

// On Windows npm is npm.cmd, its links in node_modules/.bin are .cmd files (both need a shell to
// run, and a signal to a shell would not reach the service it started), and it links no man page.
test.skipIf(process.platform === 'win32')(
  'the packed tarball installs into an empty directory and runs --version, serve, token and the library (skipped on Windows: npm and its .bin links are .cmd files there)',
  { timeout: 180_000 },
  async () => {
    const work = tempDir('tokencli-pack-');
    const { tarball, files } = pack(work);
    expect(files).toContain('bin/tokencli.js');
    expect(files).toContain('dist/cli-bundle/main.js');
    expect(files).toContain('dist/server/index.js');
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    // Every document the README links and the man page package.json names.
    expect(files).toEqual(expect.arrayContaining(['docs/reference.md', 'docs/contract.md', 'docs/serve.md']));
    expect(files).toContain('man/tokencli.1');
    // Every relative link of the documents it ships leads to a file it ships (the rest are addresses).
    const shipped = files.filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')));
    expect(shipped.length).toBeGreaterThan(3);
    const outside = shipped.flatMap((document) =>
      linkTargets(readFileSync(join(root, document), 'utf8'))
        .filter((target) => !isAddress(target) && !target.startsWith('#'))
        .map((target) => posix.join(posix.dirname(document), target.split('#')[0] ?? ''))
        .filter((file) => !files.includes(file)),
    );
    expect(outside).toEqual([]);
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);
    // Every compiled module comes from a source that exists (a build left over from a deleted one
    // would ship otherwise); the bundles are made by scripts/bundle.mjs.
    const orphans = files
      .filter((f) => f.startsWith('dist/') && !f.startsWith('dist/cli-bundle/'))
      .filter(
        (f) => !existsSync(join(root, f.replace(/^dist\//, 'src/').replace(/(\.d)?\.js$|\.d\.ts$/, '.ts'))),
      );
    expect(orphans).toEqual([]);
    // The command runs from its bundles (dist/cli-bundle/) and the executable is built in a
    // checkout: the modules of dist/cli/ and dist/sea/, which nothing the package runs or exports
    // loads, stay out.
    expect(files.filter((f) => /^dist\/(cli|sea)\//.test(f))).toEqual([]);

    const app = join(work, 'app');
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, 'package.json'), '{"name":"consumer","version":"1.0.0","private":true}');
    // npm 11 warns about every install script of a package that allowScripts does not cover: the
    // package has none (a checkout builds with `npm run build`, not `prepare`).
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: object };
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) {
      expect(Object.keys(manifest.scripts)).not.toContain(script);
    }
    const installed = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: app,
      env: cleanEnv(npmQuiet),
      encoding: 'utf8',
    });
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stderr).not.toMatch(/warn/i);
    const bin = join(app, 'node_modules', '.bin', 'tokencli');
    expect(existsSync(bin)).toBe(true);

    // Installed globally, npm links the man page where `man tokencli` finds it (it does so only for
    // an array in package.json's `man`).
    const prefix = join(work, 'global');
    const global = spawnSync(
      'npm',
      ['install', '--global', '--prefix', prefix, '--prefer-offline', tarball],
      { env: cleanEnv(npmQuiet), encoding: 'utf8' },
    );
    expect(global.status, global.stderr).toBe(0);
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'tokencli.1'))).toBe(true);

    const version = execFileSync(bin, ['--version'], { env: cleanEnv(), encoding: 'utf8' });
    expect(version.trim()).toMatch(/^\d+\.\d+\.\d+/);

    // Run through npm's link in node_modules/.bin, a hint naming a document names the installed
    // package's own copy by its absolute path.
    const badConfig = join(work, 'bad-service.json');
    writeFileSync(badConfig, '{"apps": 7}');
    const bad = spawnSync(bin, ['serve', '--port', '0', '--config', badConfig], {
      env: cleanEnv(),
      encoding: 'utf8',
    });
    expect(bad.status, bad.stderr).toBe(2);
    const installedDocs = join(realpathSync(join(app, 'node_modules', 'tokencli')), 'docs');
    expect(bad.stderr).toContain(
      `its format is described in ${join(installedDocs, 'serve.md')} (Configuration)\n`,
    );

    const server = spawn(bin, ['serve', '--port', '0'], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      if (!server.stdout) throw new Error('no stdout');
      const line = await new Promise<string>((res, rej) => {
        server.on('exit', (code) => rej(new Error(`serve exited ${code}`)));
        createInterface({ input: server.stdout as NodeJS.ReadableStream }).once('line', res);
      });
      const baseUrl = (JSON.parse(line) as { base_url: string }).base_url;
      // serve logs one line per request on stderr: the library's cached call must add none.
      let tokenRequests = 0;
      createInterface({ input: server.stderr as NodeJS.ReadableStream }).on('line', (l) => {
        if (l.includes('/v2/oauth/token ')) tokenRequests++;
      });
      const configDir = join(work, 'config');
      const env = {
        TOKENCLI_BASE_URL: baseUrl,
        TOKENCLI_CLIENT_ID: DEMO.clientId,
        TOKENCLI_CLIENT_SECRET: DEMO.clientSecret,
        TOKENCLI_STORE: 'file',
        TOKENCLI_CONFIG_DIR: configDir,
      };
      const token = execFileSync(bin, ['--profile', 'ci', 'token'], {
        env: cleanEnv({ ...env, TOKENCLI_EMAIL: DEMO.email, TOKENCLI_PASSWORD: DEMO.password }),
        encoding: 'utf8',
      });
      expect(token.trim().length).toBeGreaterThan(20);
      expect(readdirSync(configDir)).toContain('credentials.json');
      await waitFor(() => tokenRequests === 1);

      // `import … from 'tokencli'` in the consumer: the same token, from the same cache, no request.
      const script = [
        "import { getToken, getTokenInfo } from 'tokencli';",
        "const token = await getToken({ profile: 'ci' });",
        "const info = await getTokenInfo({ profile: 'ci' });",
        'console.log(JSON.stringify({ ...token, status: info.status }));',
      ].join('\n');
      writeFileSync(join(app, 'use.mjs'), script);
      const result = JSON.parse(
        execFileSync('node', ['use.mjs'], { cwd: app, env: cleanEnv(env), encoding: 'utf8' }),
      );
      expect(result).toMatchObject({
        accessToken: token.trim(),
        tokenType: expect.any(String),
        profile: 'ci',
        source: 'cache',
        email: DEMO.email,
        status: 'approved',
      });
      expect(Date.parse(result.expiresAt)).toBeGreaterThan(Date.now());
      expect(tokenRequests).toBe(1);
    } finally {
      server.removeAllListeners('exit');
      server.kill('SIGTERM');
      await new Promise((r) => server.once('close', r));
      rmSync(work, { recursive: true, force: true });
    }
  },
);

// npm 10 (Node 20's and 22's) and npm 12 check a package and its dependencies otherwise than npm
// 11 (the first test's): the same tarball, installed by each into a project and globally, must draw
// no warning either. npm 12 no longer links a package's man page (the README says where it is).
for (const npm of otherNpms)
  test.skipIf(process.platform === 'win32' || !npm.cli || npm.nodeTooOld !== undefined)(
    `npm ${npm.major} installs the packed tarball, into a project and globally, without a warning (skipped ${
      npm.nodeTooOld ??
      (npm.cli
        ? 'on Windows: npm and its .bin links are .cmd files there'
        : `without ${npm.variable}, which .ci/run sets`)
    })`,
    { timeout: 180_000 },
    () => {
      const work = tempDir(`tokencli-npm${npm.major}-`);
      try {
        // Its warnings about the machine's own npm config (a key npm 12 no longer knows, such as
        // this machine's `nodedir`) are not the package's, and are left out.
        const run = (args: string[], cwd = work) => {
          const ran = spawnSync(process.execPath, [npm.cli ?? '', ...args], {
            cwd,
            env: cleanEnv(npmQuiet),
            encoding: 'utf8',
          });
          return {
            ...ran,
            stderr: ran.stderr.replace(/^npm warn Unknown (env|user|global|project) config .*\n/gm, ''),
          };
        };
        expect(run(['--version']).stdout).toMatch(new RegExp(`^${npm.major}\\.`));
        const { tarball } = pack(work);
        const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
          version: string;
        };

        const app = join(work, 'app');
        mkdirSync(app);
        writeFileSync(join(app, 'package.json'), '{"name":"consumer","version":"1.0.0","private":true}');
        const local = run(['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], app);
        expect(local.status, local.stderr).toBe(0);
        expect(local.stderr).not.toMatch(/warn/i);
        const localBin = join(app, 'node_modules', '.bin', 'tokencli');
        expect(execFileSync(localBin, ['--version'], { env: cleanEnv(), encoding: 'utf8' }).trim()).toBe(
          version,
        );

        const prefix = join(work, 'global');
        const global = run(['install', '--global', '--prefix', prefix, '--prefer-offline', tarball]);
        expect(global.status, global.stderr).toBe(0);
        expect(global.stderr).not.toMatch(/warn/i);
        expect(existsSync(join(prefix, 'share', 'man', 'man1', 'tokencli.1'))).toBe(npm.linksManPage);
        // Where the README sends `man` when npm linked none: the installed package's own page.
        const globalModules = run(['root', '--global', '--prefix', prefix]).stdout.trim();
        expect(existsSync(join(globalModules, 'tokencli', 'man', 'tokencli.1'))).toBe(true);
        const globalBin = join(prefix, 'bin', 'tokencli');
        expect(execFileSync(globalBin, ['--version'], { env: cleanEnv(), encoding: 'utf8' }).trim()).toBe(
          version,
        );
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
  );

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((r) => setTimeout(r, 20));
}
