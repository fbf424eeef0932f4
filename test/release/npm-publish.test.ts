/**
 * The release workflow's npm publish (scripts/release/npm-publish.sh) against a registry on
 * 127.0.0.1: the upload's tarball is published as a file (a bare `upload/…` is GitHub shorthand to
 * npm), with `latest` for a release and `next` for a prerelease; a version npm has already is not
 * published again (a re-run), and a missing tarball is one line and no upload. npm reaches no
 * other host: its registry is the fake one, any other host is behind a proxy that is not there, its
 * git is a program that fails, and its update check, audit and funding are off.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join, resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cleanEnv, collectOutput } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'scripts/release/npm-publish.sh');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const releaseTarball = join(root, 'release', `tokencli-${version}.tgz`);

/** What npm PUTs to publish: the packument of the one new version, with the tarball attached. */
interface PublishBody {
  name: string;
  access?: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, { name: string; version: string }>;
  _attachments: Record<string, { data: string }>;
}

interface Registry {
  url: string;
  /** Every request, `METHOD /path`, in order. */
  requests: string[];
  /** The bodies of the PUTs, and the authorization header each came with. */
  publishes: Array<{ body: PublishBody; authorization: string | undefined }>;
  close(): Promise<void>;
}

const registries: Registry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.close()));
});

/**
 * The registry: `GET /tokencli` answers 404 while it has no version, else a packument listing
 * `versions` (the last one `latest`); `PUT /tokencli` is a publish, recorded and accepted.
 * Anything else is a 404, and shows in `requests`.
 */
async function fakeRegistry(versions: string[] = [], { down = false } = {}): Promise<Registry> {
  const requests: string[] = [];
  const publishes: Registry['publishes'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (down) json(500, { error: 'the registry is down' });
      else if (req.url !== '/tokencli') json(404, { error: 'not found' });
      else if (req.method === 'GET' && versions.length === 0) json(404, { error: 'not found' });
      else if (req.method === 'GET')
        json(200, {
          _id: 'tokencli',
          name: 'tokencli',
          'dist-tags': { latest: versions.at(-1) },
          versions: Object.fromEntries(
            versions.map((v) => [
              v,
              {
                name: 'tokencli',
                version: v,
                dist: { tarball: `http://127.0.0.1/tokencli/-/tokencli-${v}.tgz`, shasum: '0'.repeat(40) },
              },
            ]),
          ),
        });
      else if (req.method === 'PUT') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as PublishBody;
        publishes.push({ body, authorization: req.headers.authorization });
        json(201, { ok: true });
      } else json(405, { error: 'method not allowed' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const registry: Registry = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    publishes,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  registries.push(registry);
  return registry;
}

/** npm's settings for a run: the fake registry and its token, and nothing of this machine's. */
function npmEnv(registry?: Registry): NodeJS.ProcessEnv {
  const home = tempDir('tokencli-npm-home-');
  const userconfig = join(home, '.npmrc');
  const globalconfig = join(home, 'global-npmrc');
  writeFileSync(userconfig, registry ? `//${new URL(registry.url).host}/:_authToken=test-token\n` : '');
  writeFileSync(globalconfig, '');
  const env = cleanEnv({ HOME: home });
  // Nothing of the npm that runs the tests (`npm test` sets npm_config_* and more), nor of the
  // workflow's (a token, provenance).
  for (const key of Object.keys(env)) if (/^npm_/i.test(key) || key === 'NODE_AUTH_TOKEN') delete env[key];
  return {
    ...env,
    // A port nothing listens on where no registry is wanted (packing).
    npm_config_registry: registry?.url ?? 'http://127.0.0.1:9/',
    npm_config_userconfig: userconfig,
    npm_config_globalconfig: globalconfig,
    npm_config_cache: join(home, 'cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    // Any other host through a proxy that is not there, and git (which npm runs for a spec it reads
    // as a repository, as it did a bare upload/… path) a program that fails: nothing leaves loopback.
    npm_config_proxy: 'http://127.0.0.1:9/',
    npm_config_https_proxy: 'http://127.0.0.1:9/',
    npm_config_noproxy: '127.0.0.1',
    npm_config_git: 'false',
    // A failed request is said at once, not tried again after 10 s.
    npm_config_fetch_retries: '0',
  };
}

/** A tarball of a minimal package named tokencli at `pkgVersion`, made by `npm pack`. */
function packed(pkgVersion: string): string {
  const dir = tempDir('tokencli-npm-package-');
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'tokencli', version: pkgVersion, description: 'a test package', license: 'MIT' }),
  );
  writeFileSync(join(dir, 'README.md'), '# tokencli\n');
  const pack = spawnSync('npm', ['pack', '--silent'], { cwd: dir, env: npmEnv(), encoding: 'utf8' });
  expect(pack.status, pack.stderr).toBe(0);
  return join(dir, `tokencli-${pkgVersion}.tgz`);
}

/** A directory as the workflow's job has it: upload/ holding these tarballs. */
function workspace(...tarballs: string[]): string {
  const dir = tempDir('tokencli-publish-');
  mkdirSync(join(dir, 'upload'));
  for (const tarball of tarballs) copyFileSync(tarball, join(dir, 'upload', basename(tarball)));
  return dir;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `sh scripts/release/npm-publish.sh ARGS` in `cwd`; asynchronous, so the registry answers. */
async function publish(cwd: string, env: NodeJS.ProcessEnv, args: string[] = []): Promise<Run> {
  const child = spawn('sh', [script, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const { code, stdout, stderr } = await collectOutput(child, 60_000);
  return { status: code, stdout, stderr };
}

/** The one publish the registry saw, checked for what every publish of the script has. */
function onlyPublish(registry: Registry): PublishBody {
  expect(registry.publishes).toHaveLength(1);
  const [{ body, authorization }] = registry.publishes as [Registry['publishes'][number]];
  expect(authorization).toBe('Bearer test-token');
  expect(body.name).toBe('tokencli');
  expect(body.access).toBe('public');
  // No provenance outside GitHub Actions: it comes from the workflow's NPM_CONFIG_PROVENANCE.
  expect(Object.keys(body._attachments).filter((name) => name.endsWith('.sigstore'))).toEqual([]);
  return body;
}

describe.skipIf(process.platform === 'win32')(
  'npm-publish.sh (skipped on Windows: a POSIX sh script)',
  () => {
    test("a release's first version: ./upload/tokencli-VERSION.tgz, as npm's latest", async () => {
      const registry = await fakeRegistry();
      // Another tarball beside it is not the one: the script takes the tag's version by name.
      const cwd = workspace(packed('0.1.0'), packed('0.0.9'));
      const run = await publish(cwd, { ...npmEnv(registry), TAG: 'v0.1.0' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('+ tokencli@0.1.0');
      const body = onlyPublish(registry);
      expect(Object.keys(body.versions)).toEqual(['0.1.0']);
      expect(body.versions['0.1.0']).toMatchObject({ name: 'tokencli', version: '0.1.0' });
      expect(body['dist-tags']).toEqual({ latest: '0.1.0' });
      expect(Object.keys(body._attachments)).toEqual(['tokencli-0.1.0.tgz']);
      expect(Buffer.from(body._attachments['tokencli-0.1.0.tgz']?.data ?? '', 'base64')).toEqual(
        readFileSync(join(cwd, 'upload', 'tokencli-0.1.0.tgz')),
      );
      // Only the package's own document: npm view's look, npm publish's, then the upload.
      expect(new Set(registry.requests)).toEqual(new Set(['GET /tokencli', 'PUT /tokencli']));
      expect(registry.requests.at(-1)).toBe('PUT /tokencli');
    });

    test("a prerelease tag (v1.0.0-rc.1) goes to npm's next, never latest; the tag and UPLOAD as arguments", async () => {
      const registry = await fakeRegistry(['0.1.0']);
      const cwd = workspace(packed('1.0.0-rc.1'));
      const run = await publish(cwd, npmEnv(registry), ['v1.0.0-rc.1', join(cwd, 'upload')]);
      expect(run.status, run.stderr).toBe(0);
      const body = onlyPublish(registry);
      expect(Object.keys(body.versions)).toEqual(['1.0.0-rc.1']);
      expect(body['dist-tags']).toEqual({ next: '1.0.0-rc.1' });
    });

    test("a release newer than npm's latest becomes latest", async () => {
      const registry = await fakeRegistry(['0.1.0', '0.1.9']);
      const run = await publish(workspace(packed('0.1.10')), { ...npmEnv(registry), TAG: 'v0.1.10' });
      expect(run.status, run.stderr).toBe(0);
      expect(onlyPublish(registry)['dist-tags']).toEqual({ latest: '0.1.10' });
    });

    test('a fix to an older line (0.1.1 once 0.2.0 is out) goes to latest-0.1, never latest', async () => {
      const registry = await fakeRegistry(['0.1.0', '0.2.0']);
      const run = await publish(workspace(packed('0.1.1')), { ...npmEnv(registry), TAG: 'v0.1.1' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain(
        "npm's latest is tokencli@0.2.0, newer: 0.1.1 goes to the dist-tag latest-0.1\n",
      );
      expect(onlyPublish(registry)['dist-tags']).toEqual({ 'latest-0.1': '0.1.1' });
    });

    test('a version npm has already (a re-run after the publish went through): nothing published, exit 0', async () => {
      const registry = await fakeRegistry(['0.0.9', '0.1.0']);
      const run = await publish(workspace(packed('0.1.0')), { ...npmEnv(registry), TAG: 'v0.1.0' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe('tokencli@0.1.0 is on npm already\n');
      expect(registry.publishes).toEqual([]);
      expect(registry.requests).toEqual(['GET /tokencli']);
    });

    test('a registry that cannot answer whether it has the version: npm says why, exit 1, nothing published', async () => {
      const registry = await fakeRegistry(['0.1.0'], { down: true });
      const run = await publish(workspace(packed('0.1.1')), { ...npmEnv(registry), TAG: 'v0.1.1' });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('npm error 500 Internal Server Error - GET ');
      expect(
        run.stderr.endsWith(
          'npm-publish: cannot ask the registry about tokencli@0.1.1 (npm view, above); nothing published\n',
        ),
      ).toBe(true);
      expect(registry.publishes).toEqual([]);
      expect(registry.requests).toEqual(['GET /tokencli']);
    });

    test("no tarball of the tag's version in the upload: one line, exit 1, nothing published", async () => {
      const registry = await fakeRegistry();
      const run = await publish(workspace(packed('0.0.9')), { ...npmEnv(registry), TAG: 'v0.1.0' });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        "npm-publish: ./upload/tokencli-0.1.0.tgz is missing (scripts/release/collect.mjs puts the linux-x64 job's tarball there)\n",
      );
      expect(registry.publishes).toEqual([]);
    });

    test('no version tag: one line, exit 2, npm not run', async () => {
      const registry = await fakeRegistry();
      for (const env of [{}, { TAG: '0.1.0' }, { TAG: 'main' }]) {
        const run = await publish(workspace(packed('0.1.0')), { ...npmEnv(registry), ...env });
        expect(run.status).toBe(2);
        expect(run.stderr).toMatch(/^npm-publish: the tag must be a version tag such as v0\.1\.0 .+\n$/);
      }
      expect(registry.requests).toEqual([]);
    });

    test.runIf(existsSync(releaseTarball))(
      `the release's own tarball (release/) as tokencli@${version}`,
      async () => {
        const registry = await fakeRegistry();
        const run = await publish(workspace(releaseTarball), { ...npmEnv(registry), TAG: `v${version}` });
        expect(run.status, run.stderr).toBe(0);
        const body = onlyPublish(registry);
        expect(Object.keys(body.versions)).toEqual([version]);
        expect(body['dist-tags']).toEqual({ [version.includes('-') ? 'next' : 'latest']: version });
      },
    );
    test.skipIf(existsSync(releaseTarball))(
      "the release's own tarball (skipped: needs release/ from `npm run build:release`)",
      () => {},
    );
  },
);
