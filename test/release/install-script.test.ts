/**
 * install.sh against a release served on 127.0.0.1 (TOKENCLI_DOWNLOAD_URL): a good install puts a
 * working tokencli in the install directory; every refusal (a tampered archive, no checksum line,
 * an unknown platform, no SHA-256 tool) is one line on stderr, a non-zero exit, and leaves nothing
 * installed and no temporary directory behind. The good install of the real executable needs
 * release/ (`npm run build:release`, which CI runs); the other cases build a small fake release.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { requiredInCi } from '../helpers/ci-required.js';
import { cleanEnv, tempDir } from '../helpers/cli.js';
import { opensslMissing, selfSignedCertificate } from '../helpers/openssl.js';
import {
  fakeRelease,
  INSTALL_TOOLS,
  pathWith,
  programOnPath,
  type ReleaseServer,
  serveConnectProxy,
  serveHostileReason,
  serveOversized,
  serveRedirects,
  serveRelease,
  serveStatus,
  sha256File,
  THIS_PLATFORM,
  writeSums,
} from '../helpers/release-server.js';
import { tempDirInSystemTmp } from '../helpers/temp-dirs.js';
import { closedPort } from '../http/loopback-server.js';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'install.sh');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const linuxX64 = process.platform === 'linux' && process.arch === 'x64';
const realArchive = join(root, 'release', `tokencli-${version}-linux-x64.tar.gz`);

/**
 * unshare and mount, where a tmpfs can be mounted in a mount namespace of the test's own (`unshare
 * -rm`: a user namespace too, so no root is needed where user namespaces are allowed): a full disk
 * without filling a real one. Root, as in .ci/run, can always, so there it must.
 */
const unshare = process.platform === 'linux' ? programOnPath('unshare') : undefined;
const mount = process.platform === 'linux' ? programOnPath('mount') : undefined;
const tmpfsMountable =
  unshare !== undefined &&
  mount !== undefined &&
  spawnSync(unshare, ['-rm', mount, '-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', tmpdir()]).status === 0;
if (process.platform === 'linux' && process.getuid?.() === 0)
  requiredInCi(
    tmpfsMountable ? undefined : 'cannot mount a tmpfs in a mount namespace (unshare -rm)',
    "install util-linux's unshare and mount",
  );

/** wget2, which Fedora installs as its wget; undefined where it is missing. */
const wget2 = spawnSync('sh', ['-c', 'command -v wget2'], { encoding: 'utf8' }).stdout.trim() || undefined;
if (process.platform === 'linux')
  requiredInCi(wget2 ? undefined : 'wget2 is not installed', "install Debian's wget2");

/** A PATH of install.sh's tools and sha256sum, with wget2 as its only wget (as on Fedora). */
function pathWithWget2(): string {
  const bin = pathWith([...INSTALL_TOOLS, 'sha256sum']);
  symlinkSync(wget2 ?? 'wget2', join(bin, 'wget'));
  return bin;
}

const servers: ReleaseServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function serve(dir: string): Promise<ReleaseServer> {
  const server = await serveRelease(dir);
  servers.push(server);
  return server;
}

/** A release whose archive holds `members` (a string is a file's text, `{ link }` a symbolic link). */
function releaseOf(version: string, members: Record<string, string | { link: string }>): string {
  const stage = tempDir('tokencli-fake-stage-');
  for (const [name, member] of Object.entries(members)) {
    if (typeof member === 'string') writeFileSync(join(stage, name), member, { mode: 0o755 });
    else symlinkSync(member.link, join(stage, name));
  }
  const dir = tempDir('tokencli-fake-release-');
  spawnSync('tar', [
    '-czf',
    join(dir, `tokencli-${version}-${THIS_PLATFORM}.tar.gz`),
    '-C',
    stage,
    ...Object.keys(members),
  ]);
  writeSums(dir);
  return dir;
}

interface Install {
  status: number | null;
  stdout: string;
  stderr: string;
  installDir: string;
  /** What the run left in its TMPDIR: nothing, when it cleans up. */
  leftInTmp: string[];
}

/**
 * The shell that runs install.sh where a test names none: `sh`, or the command given in
 * TOKENCLI_TEST_INSTALL_SHELL (words split at spaces, such as `/usr/bin/bash --posix`), with which
 * scripts/ci/test-install-shells.sh runs this whole file by each shell users pipe the script to.
 */
const defaultShell = process.env.TOKENCLI_TEST_INSTALL_SHELL?.split(' ').filter(Boolean) ?? ['sh'];

/**
 * install.sh run by the default shell (or by the shell and arguments in `command`, such as
 * `['bash', script]`), with `input` on its standard input: the script itself, for a `command`
 * that names no file, as `curl … | sh` runs it.
 */
function install(
  url: string,
  env: Record<string, string | undefined> = {},
  command = [...defaultShell, script],
  input?: string,
): Install {
  const installDir = join(tempDir('tokencli-install-home-'), 'bin');
  const tmp = tempDir('tokencli-install-tmp-');
  const [shell = 'sh', ...args] = command;
  const result = spawnSync(shell, args, {
    env: cleanEnv({ TOKENCLI_DOWNLOAD_URL: url, TOKENCLI_INSTALL_DIR: installDir, TMPDIR: tmp, ...env }),
    encoding: 'utf8',
    timeout: 60_000,
    input,
  });
  return { ...result, installDir, leftInTmp: readdirSync(tmp) };
}

/**
 * A (fake) release 9.8.7 over https on 127.0.0.1, with a self-signed certificate for `names` (its
 * subjectAltName) that no downloader trusts unless told to: `/files/<name>` serves its files,
 * `/secure/<name>` and `/plain/<name>` redirect there and to `plain`, the same over http.
 */
async function secureRelease(names = 'IP:127.0.0.1') {
  const { dir } = fakeRelease('9.8.7');
  const plain = await serve(dir);
  const tls = selfSignedCertificate('/CN=tokencli test release', ['-addext', `subjectAltName=${names}`]);
  const secure = await serveRedirects(dir, tls, plain.url);
  servers.push(secure);
  return { dir, plain, tls, secure };
}

/** Appends a byte to the release's archive: its checksum no longer matches SHA256SUMS. */
function tamper(dir: string, archive: string): void {
  appendFileSync(join(dir, archive), 'x');
}

/** A refusal: one line naming the problem, exit 1, nothing installed, nothing left. */
function expectRefused(run: Install, message: RegExp) {
  expect(run.status, run.stderr).toBe(1);
  expect(run.stderr).toMatch(/^tokencli install: .+\n$/);
  expect(run.stderr).toMatch(message);
  expect(existsSync(run.installDir)).toBe(false);
  expect(run.leftInTmp).toEqual([]);
}

/**
 * The PATH a shell has after running the `export PATH="…"` line the install advised, pasted as it
 * is, with `home` as HOME and /usr/bin as the PATH before it.
 */
function pastedPath(stdout: string, home: string): string {
  const line = stdout.match(/e\.g\. (export PATH=".*:\$PATH")$/m)?.[1];
  expect(line, stdout).toBeDefined();
  const shell = spawnSync('sh', ['-c', `${line}; printf '%s' "$PATH"`], {
    env: { HOME: home, PATH: '/usr/bin' },
    encoding: 'utf8',
  });
  expect(shell.status, shell.stderr).toBe(0);
  return shell.stdout;
}

// install.sh is for POSIX shells; Windows users take the .zip (README).
describe.skipIf(process.platform === 'win32')('install.sh (skipped on Windows: a POSIX sh script)', () => {
  test('defaults to the version it is released with: package.json', () => {
    expect(readFileSync(script, 'utf8')).toContain(`\nRELEASED_VERSION=${version}\n`);
  });

  test.runIf(linuxX64 && existsSync(realArchive))(
    'installs the release executable, verified, and it runs with no node on PATH',
    { timeout: 120_000 },
    async () => {
      const server = await serve(join(root, 'release'));
      // A prefix with a share/ (as ~/.local has), where the man page goes.
      const prefix = tempDir('tokencli-install-home-');
      mkdirSync(join(prefix, 'share'));
      const run = install(server.url, {
        TOKENCLI_VERSION: version,
        TOKENCLI_INSTALL_DIR: join(prefix, 'bin'),
      });
      run.installDir = join(prefix, 'bin');
      expect(run.status, run.stderr).toBe(0);
      const bin = join(run.installDir, 'tokencli');
      expect(run.stdout).toContain(`tokencli ${version} installed: ${bin}\n`);
      expect(run.stdout).toContain(`${run.installDir} is not on your PATH`);
      expect(readdirSync(run.installDir)).toEqual(['tokencli']);
      // The man page beside bin/, where man finds it through PATH.
      const manPage = join(run.installDir, '..', 'share', 'man', 'man1', 'tokencli.1');
      expect(run.stdout).toContain(`man page: ${manPage}\n`);
      expect(readFileSync(manPage, 'utf8')).toBe(readFileSync(join(root, 'man', 'tokencli.1'), 'utf8'));
      expect(run.leftInTmp).toEqual([]);
      const ran = spawnSync(bin, ['--version'], { env: { PATH: '/nonexistent' }, encoding: 'utf8' });
      expect(ran.stdout).toBe(`${version}\n`);
    },
  );
  test.skipIf(linuxX64 && existsSync(realArchive))(
    'the release executable install (skipped: needs release/ from `npm run build:release` on linux-x64)',
    () => {},
  );

  test('installs from a (fake) release and says the directory is on PATH when it is', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const installDir = join(tempDir('tokencli-install-home-'), 'bin');
    const run = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      TOKENCLI_INSTALL_DIR: installDir,
      PATH: `${installDir}${delimiter}${process.env.PATH}`,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${installDir} is on your PATH`);
    expect(spawnSync(join(installDir, 'tokencli'), ['--version'], { encoding: 'utf8' }).stdout).toBe(
      '9.8.7\n',
    );
  });

  // The documented way in, `curl -fsSL …/install.sh | sh`: the shell reads the script from the pipe
  // as it runs it. In the C (POSIX) locale, which a container's shell often has, yash refuses to
  // read any byte that is not ASCII, in a comment too, so the file holds none.
  test('the script read from a pipe installs, in the C locale too: it is ASCII only', async () => {
    const text = readFileSync(script, 'utf8');
    const foreign = text
      .split('\n')
      .flatMap((line, i) => (/\P{ASCII}/u.test(line) ? [`${i + 1}: ${line}`] : []));
    expect(foreign, 'lines of install.sh that are not ASCII').toEqual([]);
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', LC_ALL: 'C' }, [...defaultShell], text);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`tokencli 9.8.7 installed: ${join(run.installDir, 'tokencli')}\n`);
    expect(spawnSync(join(run.installDir, 'tokencli'), ['--version'], { encoding: 'utf8' }).stdout).toBe(
      '9.8.7\n',
    );
    expect(run.leftInTmp).toEqual([]);
  });

  test('a tampered archive is refused before it is unpacked', async () => {
    const { dir, archive } = fakeRelease('9.8.7');
    tamper(dir, archive);
    const server = await serve(dir);
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7' }),
      new RegExp(`checksum mismatch for tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz`),
    );
  });

  test('SHA256SUMS without the archive line is refused', async () => {
    const { dir } = fakeRelease('9.8.7');
    writeFileSync(join(dir, 'other.tgz'), 'other');
    writeSums(dir, ['other.tgz']);
    const server = await serve(dir);
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7' }),
      new RegExp(`SHA256SUMS has no checksum for tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz`),
    );
  });

  // `curl … | sh` is dash here, bash (3.2, in its POSIX mode) on macOS, busybox's ash with busybox's
  // own tools in small containers; some pipe it to bash or zsh. Each must install the same way and
  // refuse alike: zsh once failed both on a refusal (its cleaning of escape sequences) and on a
  // downloader's status. These run in every `npm test`; CI also runs this whole file by zsh, ksh93,
  // bash --posix, busybox's sh, mksh and yash (scripts/ci/test-install-shells.sh).
  const shells = [
    ['bash as sh (POSIX mode, as macOS runs /bin/sh)', 'bash', ['--posix']],
    ['bash', 'bash', []],
    ['zsh', 'zsh', []],
  ] as const;
  for (const shell of new Set(shells.map(([, shell]) => shell)))
    requiredInCi(programOnPath(shell) ? undefined : `${shell} is not installed`, `install Debian's ${shell}`);
  for (const [name, shell, args] of shells) {
    const found = programOnPath(shell) ?? '';
    test.runIf(found !== '')(`installs, and refuses alike, when run by ${name}`, async () => {
      const { dir, archive } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const good = install(server.url, { TOKENCLI_VERSION: '9.8.7' }, [found, ...args, script]);
      expect(good.status, good.stderr).toBe(0);
      expect(good.stdout).toContain(`tokencli 9.8.7 installed: ${join(good.installDir, 'tokencli')}\n`);
      expect(good.leftInTmp).toEqual([]);
      tamper(dir, archive);
      expectRefused(
        install(server.url, { TOKENCLI_VERSION: '9.8.7' }, [found, ...args, script]),
        new RegExp(`checksum mismatch for tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz`),
      );
      // A value with a line break and escape sequences, cleaned out of the one-line refusal.
      const hostile = install(server.url, { TOKENCLI_VERSION: '1\n2\x1b]0;owned\x07\x1b[31m' }, [
        found,
        ...args,
        script,
      ]);
      expect(hostile.stderr).toBe(
        "tokencli install: TOKENCLI_VERSION must be an exact version such as 0.1.0, not '1 2'\n",
      );
      expect(hostile.status).toBe(1);
      // A missing file through wget: the downloader's exit status and the server's are read and
      // said (zsh keeps a $status of its own, which the script must not assign).
      if (process.platform === 'linux')
        expectRefused(
          install(
            `${server.url}/nowhere`,
            { TOKENCLI_VERSION: '9.8.7', PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'wget']) },
            [found, ...args, script],
          ),
          /cannot download \S+\/SHA256SUMS \(wget: \(8\) server error response: ERROR 404: Not Found\.\): no release there; check TOKENCLI_DOWNLOAD_URL/,
        );
    });
    test.skipIf(found !== '')(`install.sh run by ${name} (skipped: ${shell} is not installed)`, () => {});
  }

  const busybox = programOnPath('busybox') ?? '';
  if (process.platform === 'linux')
    requiredInCi(busybox ? undefined : 'busybox is not installed', "install Debian's busybox");
  test.runIf(process.platform === 'linux' && busybox !== '')(
    "with busybox's shell and nothing but its tools (its wget, sha256sum, tar, sed): installs, and refuses alike",
    async () => {
      // A PATH of busybox's applets alone, as a busybox-based image has them.
      const bin = tempDir('tokencli-busybox-');
      const applets = spawnSync(busybox, ['--list'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
      for (const applet of applets) symlinkSync(busybox, join(bin, applet));
      const sh = join(bin, 'sh');
      const { dir, archive } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const good = install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: bin }, [sh, script]);
      expect(good.status, good.stderr).toBe(0);
      expect(good.stdout).toContain(`tokencli 9.8.7 installed: ${join(good.installDir, 'tokencli')}\n`);
      expect(spawnSync(join(good.installDir, 'tokencli'), [], { encoding: 'utf8' }).stdout).toBe('9.8.7\n');
      expect(good.leftInTmp).toEqual([]);

      // busybox's sed and tr clean a value's escape sequences and line breaks out of a refusal.
      const hostile = install(
        server.url,
        { TOKENCLI_VERSION: '1\n2\x1b]0;owned\x07\x1b[31m\u009b2J', PATH: bin },
        [sh, script],
      );
      expect(hostile.stderr).toBe(
        "tokencli install: TOKENCLI_VERSION must be an exact version such as 0.1.0, not '1 22J'\n",
      );
      expect(hostile.status).toBe(1);

      tamper(dir, archive);
      expectRefused(
        install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: bin }, [sh, script]),
        new RegExp(`checksum mismatch for tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz`),
      );
      rmSync(join(dir, archive));
      expectRefused(
        install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: bin }, [sh, script]),
        new RegExp(
          `cannot download .*tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz \\(wget: .*404.*\\): the release there lacks this platform's archive`,
        ),
      );
    },
  );
  test.skipIf(process.platform !== 'linux' || busybox !== '')(
    "install.sh with busybox's tools (skipped: busybox is not installed)",
    () => {},
  );

  // macOS's tar is libarchive's bsdtar and its awk the one true awk, neither of which Debian's
  // (GNU tar, mawk) stands for: a test here before the macOS runner, which has never run.
  const bsdTools = { tar: programOnPath('bsdtar') ?? '', awk: programOnPath('original-awk') ?? '' };
  if (process.platform === 'linux') {
    requiredInCi(bsdTools.tar ? undefined : 'bsdtar is not installed', "install Debian's libarchive-tools");
    requiredInCi(bsdTools.awk ? undefined : 'original-awk is not installed', "install Debian's original-awk");
  }
  const haveBsdTools = process.platform === 'linux' && bsdTools.tar !== '' && bsdTools.awk !== '';
  test.runIf(haveBsdTools)(
    "with macOS's tar and awk (bsdtar, the one true awk): installs, refuses a tampered archive and a list without its line",
    async () => {
      const bin = pathWith([
        ...INSTALL_TOOLS.filter((tool) => tool !== 'tar' && tool !== 'awk'),
        'sha256sum',
        'curl',
      ]);
      symlinkSync(bsdTools.tar, join(bin, 'tar'));
      symlinkSync(bsdTools.awk, join(bin, 'awk'));
      const { dir, archive } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const good = install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: bin });
      expect(good.status, good.stderr).toBe(0);
      expect(good.stdout).toContain(`tokencli 9.8.7 installed: ${join(good.installDir, 'tokencli')}\n`);
      expect(good.leftInTmp).toEqual([]);
      tamper(dir, archive);
      expectRefused(
        install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: bin }),
        new RegExp(`checksum mismatch for tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz`),
      );
      writeFileSync(join(dir, 'other.tgz'), 'other');
      writeSums(dir, ['other.tgz']);
      expectRefused(
        install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: bin }),
        new RegExp(`SHA256SUMS has no checksum for tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz`),
      );
    },
  );
  test.skipIf(process.platform !== 'linux' || haveBsdTools)(
    "install.sh with macOS's tar and awk (skipped: needs bsdtar and original-awk)",
    () => {},
  );

  test("another release's files at the URL: the refusal says which release they are", async () => {
    const { dir } = fakeRelease('9.8.6-rc.1');
    const server = await serve(dir);
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7' }),
      /127\.0\.0\.1:\d+ holds the files of tokencli 9\.8\.6-rc\.1, not 9\.8\.7: set TOKENCLI_DOWNLOAD_URL and TOKENCLI_VERSION to the same release; nothing installed$/m,
    );
    // This release's own line, damaged (a checksum cut short): the list is damaged, not another release's.
    const damaged = fakeRelease('9.8.7');
    writeFileSync(
      join(damaged.dir, 'SHA256SUMS'),
      `${'a'.repeat(62)}  ${damaged.archive}\n${'b'.repeat(64)}  tokencli-9.8.7-other-os.tar.gz\n`,
    );
    const damagedServer = await serve(damaged.dir);
    expectRefused(
      install(damagedServer.url, { TOKENCLI_VERSION: '9.8.7' }),
      /SHA256SUMS has no checksum for tokencli-9\.8\.7-.*: this release has no such file \(or the list is damaged\)/,
    );
    // A name that is no version is not repeated: the plain refusal.
    const odd = fakeRelease('9.8.6');
    const renamed = join(odd.dir, `tokencli-\x1b[31mred-${THIS_PLATFORM}.tar.gz`);
    writeFileSync(renamed, 'x');
    writeSums(odd.dir, [renamed.slice(odd.dir.length + 1)]);
    const oddServer = await serve(odd.dir);
    expectRefused(
      install(oddServer.url, { TOKENCLI_VERSION: '9.8.7' }),
      new RegExp(`SHA256SUMS has no checksum for tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz`),
    );
  });

  test('an archive that is not one, though its checksum matches, is refused in one line', async () => {
    const { dir, archive } = fakeRelease('9.8.7');
    writeFileSync(join(dir, archive), 'not a gzip file\n');
    writeSums(dir, [archive]);
    const server = await serve(dir);
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7' }),
      new RegExp(`cannot unpack tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz \\(.+\\)$`, 'm'),
    );
  });

  test('an install directory that is a file, or cannot be made, is refused before anything is downloaded', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const file = join(tempDir('tokencli-install-home-'), 'a-file');
    writeFileSync(file, '');
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: join(file, 'bin') });
    expectRefused(
      { ...run, installDir: join(file, 'bin') },
      new RegExp(`^tokencli install: cannot create ${file}/bin: ${file} is not a directory$`, 'm'),
    );
    const itself = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: file });
    expect(itself.status).toBe(1);
    expect(itself.stderr).toBe(
      `tokencli install: ${file} is not a directory; set TOKENCLI_INSTALL_DIR to the directory tokencli goes in\n`,
    );
    expect(itself.leftInTmp).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(server.requests()).toEqual([]);
  });

  // Root may write anywhere: it runs install.sh as nobody, to whom root's directories are closed.
  const asRoot = process.getuid?.() === 0;
  const setpriv = spawnSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).stdout.trim();
  test.skipIf(process.platform === 'win32' || (asRoot && !setpriv))(
    'an install directory that cannot be written, or made, is refused before anything is downloaded',
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const user = asRoot ? [setpriv, '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
      // Nobody must reach the closed directory and read the script: a copy in a directory open to
      // all, in /tmp, as this run's own temporary directory is private (a checkout may be too).
      const open = asRoot
        ? await tempDirInSystemTmp('tokencli-install-open-')
        : tempDir('tokencli-install-open-');
      chmodSync(open, 0o755);
      const copy = join(open, 'install.sh');
      copyFileSync(script, copy);
      const closed = join(open, 'closed');
      mkdirSync(closed);
      chmodSync(closed, 0o555);
      try {
        // Closed to all but root: whether anything below it exists is hidden.
        const sealed = join(open, 'sealed');
        mkdirSync(join(sealed, 'sub', 'bin'), { recursive: true });
        chmodSync(sealed, 0o700);
        for (const [installDir, message] of [
          [closed, `cannot write to ${closed}`],
          [join(closed, 'bin'), `cannot create ${join(closed, 'bin')}: cannot write to ${closed}`],
          ...(asRoot
            ? ([
                [
                  join(sealed, 'sub', 'bin'),
                  `cannot reach ${join(sealed, 'sub', 'bin')}: cannot enter ${sealed}`,
                ],
              ] as const)
            : []),
        ] as const) {
          const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir }, [
            ...user,
            'sh',
            copy,
          ]);
          expect(run.status, run.stderr).toBe(1);
          expect(run.stderr).toBe(
            `tokencli install: ${message}; set TOKENCLI_INSTALL_DIR to a directory you can write\n`,
          );
          expect(run.leftInTmp).toEqual([]);
        }
        expect(readdirSync(closed)).toEqual([]);
        expect(server.requests()).toEqual([]);
      } finally {
        chmodSync(closed, 0o755);
      }
    },
  );

  test.runIf(process.platform === 'linux')(
    'a file put where the install directory goes, during the download, is found before the install',
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const installDir = join(tempDir('tokencli-install-home-'), 'bin');
      // A curl that, as it downloads the archive, puts a file at the install directory's name.
      const bin = tempDir('tokencli-racing-curl-');
      const realCurl = spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim();
      writeFileSync(
        join(bin, 'curl'),
        `#!/bin/sh\ncase "$*" in *.tar.gz*) echo in the way >'${installDir}' ;; esac\nexec ${realCurl} "$@"\n`,
        { mode: 0o755 },
      );
      const run = install(server.url, {
        TOKENCLI_VERSION: '9.8.7',
        TOKENCLI_INSTALL_DIR: installDir,
        PATH: `${bin}${delimiter}${process.env.PATH}`,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        `tokencli install: ${installDir} is not a directory; set TOKENCLI_INSTALL_DIR to the directory tokencli goes in\n`,
      );
      expect(readFileSync(installDir, 'utf8')).toBe('in the way\n');
      expect(run.leftInTmp).toEqual([]);
    },
  );

  test("a missing archive or SHA256SUMS is refused, with the downloader's reason and the likely cause", async () => {
    const { dir, archive } = fakeRelease('9.8.7');
    rmSync(join(dir, archive));
    const server = await serve(dir);
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7' }),
      new RegExp(
        `cannot download .*tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz \\(curl: .*404.*\\): the release there lacks this platform's archive \\(${THIS_PLATFORM}\\), though its SHA256SUMS lists it$`,
        'm',
      ),
    );
    expectRefused(
      install(`${server.url}/nowhere`, { TOKENCLI_VERSION: '9.8.7' }),
      /cannot download .*SHA256SUMS \(curl: .*404.*\): no release there; check TOKENCLI_DOWNLOAD_URL, the base URL of a release's files$/m,
    );
  });

  test("no release at GitHub's address names the version, and TOKENCLI_VERSION when it was given", async () => {
    const server = await serve(tempDir('tokencli-empty-release-'));
    // A curl that takes GitHub's release downloads to the test server (over plain http, which
    // install.sh allows only this machine), where every name is not found.
    const bin = tempDir('tokencli-github-curl-');
    const realCurl = spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(
      join(bin, 'curl'),
      [
        '#!/bin/sh',
        'for arg; do',
        '  shift',
        '  case $arg in',
        `    https://github.com/tokencli/tokencli/releases/download/*) arg=${server.url}/\${arg#https://github.com/tokencli/tokencli/releases/download/} ;;`,
        '    =https) arg==http,https ;;',
        '  esac',
        '  set -- "$@" "$arg"',
        'done',
        `exec ${realCurl} "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const env = { TOKENCLI_DOWNLOAD_URL: '', PATH: `${bin}${delimiter}${process.env.PATH}` };
    expectRefused(
      install('', { ...env, TOKENCLI_VERSION: 'v9.9.9' }),
      /^tokencli install: cannot download https:\/\/github\.com\/tokencli\/tokencli\/releases\/download\/v9\.9\.9\/SHA256SUMS \(curl: .*404.*\): no release 9\.9\.9 there; check TOKENCLI_VERSION$/m,
    );
    expectRefused(
      install('', env),
      new RegExp(
        `/v${version.replaceAll('.', '\\.')}/SHA256SUMS \\(curl: .*404.*\\): no release ${version.replaceAll('.', '\\.')} \\(this install\\.sh's\\) there; set TOKENCLI_VERSION to a released version$`,
        'm',
      ),
    );
    expect(server.requests().map((r) => r.path)).toEqual(['/v9.9.9/SHA256SUMS', `/v${version}/SHA256SUMS`]);
  });

  test('a platform the release has no archive for is refused before any archive is downloaded', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    // Windows on arm64, which no release builds.
    const uname = tempDir('tokencli-fake-uname-');
    writeFileSync(
      join(uname, 'uname'),
      '#!/bin/sh\ncase $1 in -s) echo MINGW64_NT-10.0 ;; -m) echo aarch64 ;; esac\n',
      { mode: 0o755 },
    );
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: `${uname}${delimiter}${process.env.PATH}` }),
      /SHA256SUMS has no checksum for tokencli-9\.8\.7-win-arm64\.zip: this release has no such file \(or the list is damaged\); it runs with Node\.js from a checkout, or from npm once published: see the README's Install section$/m,
    );
    expect(server.requests().map((r) => r.path)).toEqual(['/SHA256SUMS']);
  });

  test('an Apple Silicon Mac in a Rosetta terminal gets the arm64 build', async () => {
    const { dir } = fakeRelease('9.8.7', 'darwin-arm64');
    const server = await serve(dir);
    for (const [arm64, archive] of [
      ['1', 'tokencli-9.8.7-darwin-arm64.tar.gz'],
      ['0', 'tokencli-9.8.7-darwin-x64.tar.gz'],
    ] as const) {
      // macOS's uname under Rosetta, and its sysctl saying whether the processor is arm64.
      const bin = tempDir('tokencli-fake-mac-');
      writeFileSync(
        join(bin, 'uname'),
        '#!/bin/sh\ncase $1 in -s) echo Darwin ;; -m) echo x86_64 ;; esac\n',
        {
          mode: 0o755,
        },
      );
      writeFileSync(join(bin, 'sysctl'), `#!/bin/sh\n[ "$*" = '-n hw.optional.arm64' ] && echo ${arm64}\n`, {
        mode: 0o755,
      });
      const run = install(server.url, {
        TOKENCLI_VERSION: '9.8.7',
        PATH: `${bin}${delimiter}${process.env.PATH}`,
      });
      if (arm64 === '1') expect(run.status, run.stderr).toBe(0);
      else expectRefused(run, new RegExp(`SHA256SUMS has no checksum for ${archive.replaceAll('.', '\\.')}`));
    }
    expect(server.requests().map((r) => r.path)).toEqual([
      '/SHA256SUMS',
      '/tokencli-9.8.7-darwin-arm64.tar.gz',
      '/SHA256SUMS',
    ]);
  });

  test('Windows without unzip is refused before anything is downloaded', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    // Git Bash's uname, on a PATH of install.sh's tools without unzip.
    const bin = pathWith([...INSTALL_TOOLS.filter((tool) => tool !== 'uname'), 'curl', 'sha256sum']);
    writeFileSync(
      join(bin, 'uname'),
      '#!/bin/sh\ncase $1 in -s) echo MINGW64_NT-10.0 ;; -m) echo x86_64 ;; esac\n',
      {
        mode: 0o755,
      },
    );
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: bin }),
      /^tokencli install: unzip is not installed to unpack tokencli-9\.8\.7-win-x64\.zip$/m,
    );
    expect(server.requests()).toEqual([]);
  });

  test.runIf(process.platform === 'linux')(
    'each program it cannot do without, when missing, is named before anything is downloaded',
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      // sh runs it; printf is a builtin of most shells; id, ls and find serve only steps that may fail.
      const optional = ['sh', 'printf', 'id', 'ls', 'find'];
      for (const missing of INSTALL_TOOLS.filter((tool) => !optional.includes(tool))) {
        const run = install(server.url, {
          TOKENCLI_VERSION: '9.8.7',
          PATH: pathWith([...INSTALL_TOOLS.filter((tool) => tool !== missing), 'curl', 'sha256sum']),
        });
        expectRefused(run, new RegExp(`^tokencli install: ${missing} is not installed[ ,]`, 'm'));
      }
      expect(server.requests()).toEqual([]);
    },
  );

  test.each([
    [
      // What a glibc build meets on musl: the interpreter it names is not there.
      'an executable that cannot start here',
      '#!/nonexistent/ld-musl-x86_64.so.1\n',
      /^tokencli install: the [a-z]+-[a-z0-9]+ tokencli does not run on this system .*; nothing installed \(.+\)\n$/,
    ],
    [
      // A mirror's older release.
      'an archive holding another version than the one asked for',
      '#!/bin/sh\necho 1.0.0\n',
      /^tokencli install: the tokencli in \S+ is not version 9\.8\.7; nothing installed\n$/,
    ],
  ])('%s is refused, and the one installed before is kept', async (_, program, message) => {
    const { dir } = fakeRelease('9.8.7', THIS_PLATFORM, program);
    const server = await serve(dir);
    const installDir = join(tempDir('tokencli-install-home-'), 'bin');
    mkdirSync(installDir);
    writeFileSync(join(installDir, 'tokencli'), '#!/bin/sh\necho old\n', { mode: 0o755 });
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(readdirSync(installDir)).toEqual(['tokencli']);
    expect(readFileSync(join(installDir, 'tokencli'), 'utf8')).toBe('#!/bin/sh\necho old\n');
    expect(run.leftInTmp).toEqual([]);
  });

  // An upgrade while the old tokencli runs (a `tokencli serve` in another terminal): writing into a
  // running executable fails on Linux (ETXTBSY), renaming a new file over its name does not, and
  // the running one goes on from the file it opened.
  test.runIf(process.platform === 'linux')(
    'an upgrade replaces a tokencli that is running, which runs on',
    async () => {
      const sleep = programOnPath('sleep');
      expect(sleep, 'sleep is on PATH').toBeDefined();
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const installDir = join(tempDir('tokencli-install-home-'), 'bin');
      mkdirSync(installDir);
      const target = join(installDir, 'tokencli');
      // A real executable (not a script), so that the kernel holds the file as running.
      copyFileSync(realpathSync(sleep ?? 'sleep'), target);
      chmodSync(target, 0o755);
      const running = spawn(target, ['60'], { stdio: 'ignore' });
      try {
        await new Promise<void>((res, rej) => {
          running.once('spawn', res);
          running.once('error', rej);
        });
        const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir });
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout).toContain(`tokencli 9.8.7 installed: ${target}\n`);
        expect(spawnSync(target, ['--version'], { encoding: 'utf8' }).stdout).toBe('9.8.7\n');
        expect(readdirSync(installDir)).toEqual(['tokencli']);
        expect(running.exitCode, 'the old tokencli still runs').toBeNull();
        expect(run.leftInTmp).toEqual([]);
      } finally {
        running.kill();
      }
    },
  );

  test('a relative or ~ install directory is installed to and named by its full path', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const home = tempDir('tokencli-install-home-');
    const relative = spawnSync('sh', [script], {
      cwd: home,
      env: cleanEnv({
        TOKENCLI_DOWNLOAD_URL: server.url,
        TOKENCLI_VERSION: '9.8.7',
        TOKENCLI_INSTALL_DIR: 'rel/bin',
      }),
      encoding: 'utf8',
    });
    expect(relative.status, relative.stderr).toBe(0);
    // sh names its working directory by its real path when no PWD of the shell's says otherwise
    // (macOS's temporary directory is under /var, a link to /private/var).
    const realHome = realpathSync(home);
    expect(relative.stdout).toContain(`installed: ${join(realHome, 'rel', 'bin', 'tokencli')}\n`);
    expect(relative.stdout).toContain(`export PATH="${join(realHome, 'rel', 'bin')}:$PATH"`);
    // As a CI file's env: block gives it, unexpanded.
    const tilde = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      TOKENCLI_INSTALL_DIR: '~/bin',
      HOME: home,
    });
    expect(tilde.status, tilde.stderr).toBe(0);
    expect(existsSync(join(home, 'bin', 'tokencli'))).toBe(true);
    expect(tilde.stdout).toContain(`installed: ${join(home, 'bin', 'tokencli')}\n`);
  });

  test('the man page goes into <prefix>/share beside <prefix>/bin only, replaces a link, and failing costs nothing', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const manPage = (prefix: string) => join(prefix, 'share', 'man', 'man1', 'tokencli.1');
    // Not a .../bin: no man page, and no word of one. No share/ there: said, and nothing made.
    const home = tempDir('tokencli-install-home-');
    const notBin = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      TOKENCLI_INSTALL_DIR: join(home, 'tools'),
    });
    expect(notBin.status, notBin.stderr).toBe(0);
    expect(notBin.stdout).not.toContain('man page');
    const noShare = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      TOKENCLI_INSTALL_DIR: join(home, 'bin'),
    });
    expect(noShare.status, noShare.stderr).toBe(0);
    // The archive is gone by then: what to do instead, and where the page is to be had.
    const archiveUrl = `${server.url}/tokencli-9.8.7-${THIS_PLATFORM}.tar.gz`;
    expect(noShare.stdout).toContain(
      `no man page installed: ${join(home, 'share')} is not a directory; make it and run install.sh again, or unpack tokencli.1 from ${archiveUrl}\n`,
    );
    expect(readdirSync(home).sort()).toEqual(['bin', 'tools']);
    // ~/bin, the home's own: no ~/share is asked for, only for a place on MANPATH.
    const homeBin = tempDir('tokencli-install-home-');
    const inHomeBin = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      HOME: homeBin,
      TOKENCLI_INSTALL_DIR: '~/bin',
    });
    expect(inHomeBin.status, inHomeBin.stderr).toBe(0);
    expect(inHomeBin.stdout).toContain(
      `no man page installed: for ~/bin there is no share/man to put it in; unpack tokencli.1 from ${archiveUrl} into a directory of your MANPATH\n`,
    );
    expect(readdirSync(homeBin)).toEqual(['bin']);
    // The default ~/.local/bin of a fresh home: ~/.local/share is made for the page.
    const fresh = tempDir('tokencli-install-home-');
    const byDefault = spawnSync('sh', [script], {
      env: cleanEnv({ TOKENCLI_DOWNLOAD_URL: server.url, TOKENCLI_VERSION: '9.8.7', HOME: fresh }),
      encoding: 'utf8',
    });
    expect(byDefault.status, byDefault.stderr).toBe(0);
    expect(byDefault.stdout).toContain(`man page: ${manPage(join(fresh, '.local'))}\n`);
    // share/ is a file: no man page, tokencli installed all the same.
    const blocked = tempDir('tokencli-install-home-');
    writeFileSync(join(blocked, 'share'), '');
    const run = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      TOKENCLI_INSTALL_DIR: join(blocked, 'bin'),
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('no man page installed');
    expect(existsSync(join(blocked, 'bin', 'tokencli'))).toBe(true);
    // share/man/man1 cannot be made (man is a file): said, tokencli installed all the same.
    const unwritable = tempDir('tokencli-install-home-');
    mkdirSync(join(unwritable, 'share'));
    writeFileSync(join(unwritable, 'share', 'man'), '');
    const refused = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      TOKENCLI_INSTALL_DIR: join(unwritable, 'bin'),
    });
    expect(refused.status, refused.stderr).toBe(0);
    expect(refused.stdout).toContain(
      `no man page installed: ${join(unwritable, 'share', 'man', 'man1')} cannot be written; once it can, run install.sh again, or unpack tokencli.1 from ${archiveUrl}\n`,
    );
    // A link at the man page's name (an npm install's page): replaced, the file it named untouched.
    const linked = tempDir('tokencli-install-home-');
    mkdirSync(join(linked, 'share', 'man', 'man1'), { recursive: true });
    const npmPage = join(linked, 'npm-page.1');
    writeFileSync(npmPage, 'npm page\n');
    symlinkSync(npmPage, manPage(linked));
    const replaced = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      TOKENCLI_INSTALL_DIR: join(linked, 'bin'),
    });
    expect(replaced.stdout).toContain(`man page: ${manPage(linked)}\n`);
    expect(lstatSync(manPage(linked)).isFile()).toBe(true);
    expect(readFileSync(manPage(linked), 'utf8')).toBe('.TH TOKENCLI 1 "" "9.8.7"\n');
    expect(readFileSync(npmPage, 'utf8')).toBe('npm page\n');
    expect(readdirSync(join(linked, 'share', 'man', 'man1'))).toEqual(['tokencli.1']);
  });

  test('paths are said as they are (a backslash too), and CDPATH does not move a relative install directory', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const home = tempDir('tokencli-install-home-');
    const odd = join(home, 'x\\tdir\\cbin');
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: odd });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`tokencli 9.8.7 installed: ${join(odd, 'tokencli')}\n`);
    expect(run.stdout).toContain(`${odd} is not on your PATH`);
    // The line it advises gives that directory back to a shell that runs it; so it does for one
    // whose name holds what double quotes do not keep as it is.
    expect(pastedPath(run.stdout, home)).toBe(`${odd}:/usr/bin`);
    const quoting = join(home, 'a$HOME"b`c\\d');
    const quoted = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: quoting });
    expect(quoted.status, quoted.stderr).toBe(0);
    expect(pastedPath(quoted.stdout, home)).toBe(`${quoting}:/usr/bin`);
    const elsewhere = tempDir('tokencli-cdpath-');
    mkdirSync(join(elsewhere, 'rel'));
    const relative = spawnSync('sh', [script], {
      cwd: home,
      env: cleanEnv({
        TOKENCLI_DOWNLOAD_URL: server.url,
        TOKENCLI_VERSION: '9.8.7',
        TOKENCLI_INSTALL_DIR: 'rel',
        CDPATH: elsewhere,
      }),
      encoding: 'utf8',
    });
    expect(relative.status, relative.stderr).toBe(0);
    expect(relative.stdout).toContain(`installed: ${join(realpathSync(home), 'rel', 'tokencli')}\n`);
    expect(readdirSync(join(elsewhere, 'rel'))).toEqual([]);
  });

  test.each([
    ['a trailing slash', 'a/b/c/'],
    ['a "." in it', 'a/./b/c'],
    ['a ".." in it', 'a/b/c/..'],
  ])(
    'an install refused once its directories are made removes them all, with %s in TOKENCLI_INSTALL_DIR',
    async (_, path) => {
      const { dir } = fakeRelease('9.8.7', THIS_PLATFORM, '#!/bin/sh\necho 1.0.0\n');
      const server = await serve(dir);
      const home = tempDir('tokencli-install-home-');
      const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: `${home}/${path}` });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /^tokencli install: the tokencli in \S+ is not version 9\.8\.7; nothing installed\n$/,
      );
      expect(readdirSync(home)).toEqual([]);
      expect(run.leftInTmp).toEqual([]);
    },
  );

  test.each([
    [
      // What Node 26's executable says where libatomic is not installed (a slim container image).
      'a missing shared library, named with its package',
      'echo "$0: error while loading shared libraries: libatomic.so.1: cannot open shared object file: No such file or directory" >&2\nexit 127',
      /^tokencli install: the [a-z]+-[a-z0-9]+ tokencli needs libatomic\.so\.1 \(Debian, Ubuntu: apt-get install libatomic1; Fedora, RHEL: dnf install libatomic\), which this system lacks; nothing installed$/m,
    ],
    [
      // What a shell says when exec is refused on a noexec mount.
      'an install directory that runs no program (noexec)',
      'echo "sh: 1: $0: Permission denied" >&2\nexit 126',
      /^tokencli install: \S+ does not let programs run \(a noexec mount\?\); nothing installed \(.*Permission denied\)$/m,
    ],
  ])('an executable that cannot start is refused, saying why: %s', async (_, body, message) => {
    const { dir } = fakeRelease('9.8.7', THIS_PLATFORM, `#!/bin/sh\n${body}\n`);
    const server = await serve(dir);
    expectRefused(install(server.url, { TOKENCLI_VERSION: '9.8.7' }), message);
  });

  test.runIf(process.platform === 'linux')(
    "a wget that checks no TLS certificate (busybox's without openssl) is refused",
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      // busybox's wget as it behaves without openssl: it downloads, and says it verified nothing.
      const bin = pathWith([...INSTALL_TOOLS, 'sha256sum']);
      const realCurl = spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim();
      writeFileSync(
        join(bin, 'wget'),
        [
          '#!/bin/sh',
          '[ "$1" = --version ] && { echo "BusyBox v1.35.0 multi-call binary." >&2; exit 1; }',
          'echo "wget: note: TLS certificate validation not implemented" >&2',
          `exec ${realCurl} -fsS -o "$3" "$4"`,
          '',
        ].join('\n'),
        { mode: 0o755 },
      );
      expectRefused(
        install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: bin }),
        /cannot download \S+\/SHA256SUMS \(this wget cannot verify the server's TLS certificate; install curl\)$/m,
      );
    },
  );

  test.runIf(process.platform === 'linux')(
    "busybox's wget: a file not found is said with the likely cause, as with the others",
    async () => {
      // What busybox's wget says of a 404, with the headers -S asked for before it.
      const bin = pathWith([...INSTALL_TOOLS, 'sha256sum']);
      writeFileSync(
        join(bin, 'wget'),
        [
          '#!/bin/sh',
          '[ "$1" = --version ] && { echo "BusyBox v1.35.0 multi-call binary." >&2; exit 1; }',
          'echo "  HTTP/1.1 404 Not Found" >&2',
          'echo "wget: server returned error: HTTP/1.1 404 Not Found" >&2',
          'exit 1',
          '',
        ].join('\n'),
        { mode: 0o755 },
      );
      expectRefused(
        install('http://127.0.0.1:9', { TOKENCLI_VERSION: '9.8.7', PATH: bin }),
        /^tokencli install: cannot download \S+\/SHA256SUMS \(wget: server returned error: HTTP\/1\.1 404 Not Found\): no release there; check TOKENCLI_DOWNLOAD_URL, the base URL of a release's files$/m,
      );
    },
  );

  test('a directory where tokencli would go is refused before anything is downloaded', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const installDir = join(tempDir('tokencli-install-home-'), 'bin');
    mkdirSync(join(installDir, 'tokencli'), { recursive: true });
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `tokencli install: ${join(installDir, 'tokencli')} is a directory; nothing installed\n`,
    );
    expect(readdirSync(installDir)).toEqual(['tokencli']);
    expect(readdirSync(join(installDir, 'tokencli'))).toEqual([]);
    expect(server.requests()).toEqual([]);
  });

  /**
   * What killed runs leave in PARENT under PREFIX (install.sh's mktemp pattern less its six X's),
   * and what must outlive the sweep: PREFIXAbc123, three days old and holding a file, goes;
   * PREFIXFresh1 (new), PREFIXnotmktemp (old, but no name mktemp makes) and PREFIXLink12 (an old
   * link to ELSEWHERE, whose file stays) stay. Returns the names that stay.
   */
  function leftByKilledRuns(parent: string, prefix: string, elsewhere: string): string[] {
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    mkdirSync(join(parent, `${prefix}Abc123`), { recursive: true });
    writeFileSync(join(parent, `${prefix}Abc123`, 'tokencli'), 'a killed run’s file');
    mkdirSync(join(parent, `${prefix}Fresh1`));
    mkdirSync(join(parent, `${prefix}notmktemp`));
    symlinkSync(elsewhere, join(parent, `${prefix}Link12`));
    for (const name of [`${prefix}Abc123`, `${prefix}notmktemp`])
      utimesSync(join(parent, name), threeDaysAgo, threeDaysAgo);
    lutimesSync(join(parent, `${prefix}Link12`), threeDaysAgo, threeDaysAgo);
    return [`${prefix}Fresh1`, `${prefix}Link12`, `${prefix}notmktemp`];
  }

  test("a killed run's staging directory goes once days old; a fresh one, a link or a look-alike stays", async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const prefix = tempDir('tokencli-install-home-');
    const installDir = join(prefix, 'bin');
    const manDir = join(prefix, 'share/man/man1');
    const elsewhere = tempDir('tokencli-elsewhere-');
    writeFileSync(join(elsewhere, 'kept'), 'not ours to remove');
    const stay = new Map<string, string[]>();
    for (const parent of [installDir, manDir]) {
      stay.set(parent, leftByKilledRuns(parent, '.tokencli.', elsewhere));
      // A day and a bit: kept, for BSD's find counts days rounded up (install.sh says why).
      mkdirSync(join(parent, '.tokencli.Day1xx'));
      const dayAndABit = new Date(Date.now() - 30 * 3_600_000);
      utimesSync(join(parent, '.tokencli.Day1xx'), dayAndABit, dayAndABit);
    }
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir });
    expect(run.status, run.stderr).toBe(0);
    expect(readdirSync(installDir).sort()).toEqual(
      [...(stay.get(installDir) ?? []), '.tokencli.Day1xx', 'tokencli'].sort(),
    );
    expect(readdirSync(manDir).sort()).toEqual(
      [...(stay.get(manDir) ?? []), '.tokencli.Day1xx', 'tokencli.1'].sort(),
    );
    expect(readdirSync(elsewhere)).toEqual(['kept']);
  });

  test("a killed run's download directory in TMPDIR goes once days old; a fresh one, a link or a look-alike stays", async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const tmp = tempDir('tokencli-install-tmp-');
    const elsewhere = tempDir('tokencli-elsewhere-');
    writeFileSync(join(elsewhere, 'kept'), 'not ours to remove');
    const stay = leftByKilledRuns(tmp, 'tokencli-install.', elsewhere);
    // Another program's directory of the same shape.
    mkdirSync(join(tmp, 'another-program.Abc123'));
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    utimesSync(join(tmp, 'another-program.Abc123'), threeDaysAgo, threeDaysAgo);
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TMPDIR: tmp });
    expect(run.status, run.stderr).toBe(0);
    expect(readdirSync(tmp).sort()).toEqual([...stay, 'another-program.Abc123'].sort());
    expect(readdirSync(elsewhere)).toEqual(['kept']);
  });

  test("replacing npm's link to its package is said, with what npm would then do", async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const prefix = tempDir('tokencli-npm-prefix-');
    const installDir = join(prefix, 'bin');
    mkdirSync(join(prefix, 'lib/node_modules/tokencli/bin'), { recursive: true });
    writeFileSync(join(prefix, 'lib/node_modules/tokencli/bin/tokencli.js'), '#!/usr/bin/env node\n', {
      mode: 0o755,
    });
    mkdirSync(installDir);
    symlinkSync('../lib/node_modules/tokencli/bin/tokencli.js', join(installDir, 'tokencli'));
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "it replaced npm's link to the tokencli package, so `npm uninstall -g tokencli` would remove it and `npm install -g tokencli` put the link back",
    );
    expect(lstatSync(join(installDir, 'tokencli')).isFile()).toBe(true);
    // Any other link, or a file, is replaced without a word about npm; so is a link whose own
    // path, not its target, has npm's look.
    const again = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).not.toContain("npm's link");
    const oddDir = join(tempDir('tokencli-odd-'), 'x -> node_modules', 'tokencli', 'bin');
    mkdirSync(oddDir, { recursive: true });
    symlinkSync('/bin/true', join(oddDir, 'tokencli'));
    const odd = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: oddDir });
    expect(odd.status, odd.stderr).toBe(0);
    expect(odd.stdout).not.toContain("npm's link");
  });

  test('says when another tokencli comes first on PATH', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const other = tempDir('tokencli-other-bin-');
    writeFileSync(join(other, 'tokencli'), '#!/bin/sh\n', { mode: 0o755 });
    const installDir = join(tempDir('tokencli-install-home-'), 'bin');
    const run = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      TOKENCLI_INSTALL_DIR: installDir,
      PATH: [other, installDir, process.env.PATH].join(delimiter),
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`another tokencli comes first on your PATH (${join(other, 'tokencli')})`);
  });

  test('takes the tag form of a version, a TMPDIR with a backslash, and says HOME is missing or not there', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const tagged = install(server.url, { TOKENCLI_VERSION: 'v9.8.7' });
    expect(tagged.status, tagged.stderr).toBe(0);
    expect(tagged.stdout).toContain('tokencli 9.8.7 installed');
    const odd = join(tempDir('tokencli-install-tmp-'), 'a\\b');
    mkdirSync(odd);
    const backslash = install(server.url, { TOKENCLI_VERSION: '9.8.7', TMPDIR: odd });
    expect(backslash.status, backslash.stderr).toBe(0);
    expect(readdirSync(odd)).toEqual([]);
    const homeless = spawnSync('sh', [script], {
      env: { PATH: process.env.PATH ?? '', TOKENCLI_DOWNLOAD_URL: server.url },
      encoding: 'utf8',
    });
    expect(homeless.status).toBe(1);
    expect(homeless.stderr).toBe(
      'tokencli install: HOME is not set: set TOKENCLI_INSTALL_DIR to the directory tokencli goes in\n',
    );
    // A service account's home that is not there: said as such, not as "cannot write to /".
    const nowhere = join(tempDir('tokencli-install-home-'), 'nonexistent');
    const away = spawnSync('sh', [script], {
      env: { PATH: process.env.PATH ?? '', TOKENCLI_DOWNLOAD_URL: server.url, HOME: nowhere },
      encoding: 'utf8',
    });
    expect(away.status).toBe(1);
    expect(away.stderr).toBe(
      `tokencli install: HOME (${nowhere}) is not a directory, so there is no ~/.local/bin: set TOKENCLI_INSTALL_DIR to the directory tokencli goes in\n`,
    );
    const tilde = spawnSync('sh', [script], {
      env: {
        PATH: process.env.PATH ?? '',
        TOKENCLI_DOWNLOAD_URL: server.url,
        HOME: nowhere,
        TOKENCLI_INSTALL_DIR: '~/bin',
      },
      encoding: 'utf8',
    });
    expect(tilde.status).toBe(1);
    expect(tilde.stderr).toBe(
      `tokencli install: HOME (${nowhere}) is not a directory, so ~/bin means nothing: give TOKENCLI_INSTALL_DIR as a full path\n`,
    );
    expect(existsSync(nowhere)).toBe(false);
  });

  // `curl … | sudo sh`: sudo runs it as root and sets SUDO_USER (doas: DOAS_USER). An `id` on PATH
  // answers `-u` with the uid the case needs, whoever runs the test.
  test('run as root by sudo or doas for another user, the default directory is refused before anything is done; a directory given is taken', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const asUid = (uid: number) => {
      const bin = tempDir('tokencli-fake-id-');
      writeFileSync(
        join(bin, 'id'),
        `#!/bin/sh\n[ "$1" = -u ] && { echo ${uid}; exit 0; }\nexec /usr/bin/env -i id "$@"\n`,
        {
          mode: 0o755,
        },
      );
      return `${bin}${delimiter}${process.env.PATH}`;
    };
    // By its default directory, in a home of its own (or the one given).
    const run = (env: Record<string, string>) => {
      const home = env.HOME ?? tempDir('tokencli-install-home-');
      return {
        ...install(server.url, {
          TOKENCLI_VERSION: '9.8.7',
          TOKENCLI_INSTALL_DIR: undefined,
          HOME: home,
          ...env,
        }),
        home,
      };
    };

    for (const [variable, by] of [
      ['SUDO_USER', 'sudo'],
      ['DOAS_USER', 'doas'],
    ] as const) {
      const refused = run({ [variable]: 'alice', PATH: asUid(0) });
      expect(refused.status, refused.stderr).toBe(1);
      // Run from the file, the advice names it; read from a pipe, the pipe is the way again.
      expect(refused.stderr).toBe(
        `tokencli install: run by ${by}, it would install tokencli as root into ${join(refused.home, '.local', 'bin')}: ` +
          `run install.sh without ${by} to install it for alice (it needs no root), or for every user with ${by} env TOKENCLI_INSTALL_DIR=/usr/local/bin sh "${script}"\n`,
      );
      expect(readdirSync(refused.home)).toEqual([]);
      expect(refused.leftInTmp).toEqual([]);
    }
    const piped = install(
      server.url,
      { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: undefined, SUDO_USER: 'alice', PATH: asUid(0) },
      [...defaultShell],
      readFileSync(script, 'utf8'),
    );
    expect(piped.stderr).toMatch(
      /, or for every user with sudo env TOKENCLI_INSTALL_DIR=\/usr\/local\/bin sh\n$/,
    );
    expect(server.requests()).toEqual([]);

    // A home of "/" (a user without one of their own) is no "//" in the path said.
    const rootHome = run({ SUDO_USER: 'alice', PATH: asUid(0), HOME: '/' });
    expect(rootHome.stderr).toMatch(
      /^tokencli install: run by sudo, it would install tokencli as root into \/\.local\/bin: /,
    );

    // A directory given is where root meant it to go.
    const given = join(tempDir('tokencli-install-prefix-'), 'bin');
    const systemWide = run({ SUDO_USER: 'alice', PATH: asUid(0), TOKENCLI_INSTALL_DIR: given });
    expect(systemWide.status, systemWide.stderr).toBe(0);
    expect(systemWide.stdout).toContain(`tokencli 9.8.7 installed: ${join(given, 'tokencli')}\n`);
    // Root by sudo from a root shell, and another user by `sudo -u`: each its own home's.
    for (const [user, uid] of [
      ['root', 0],
      ['alice', 1000],
    ] as const) {
      const own = run({ SUDO_USER: user, PATH: asUid(uid) });
      expect(own.status, own.stderr).toBe(0);
      expect(existsSync(join(own.home, '.local', 'bin', 'tokencli'))).toBe(true);
    }
  });

  test('a script cut short on its way through a pipe does nothing: it fails, or only defines', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const lines = readFileSync(script, 'utf8').split('\n');
    const mainStarts = lines.indexOf('main() {');
    const mainEnds = lines.lastIndexOf('}');
    expect(mainStarts).toBeGreaterThan(0);
    for (let cut = 1; cut < lines.length - 2; cut++) {
      const installDir = join(tempDir('tokencli-install-home-'), 'bin');
      const tmp = tempDir('tokencli-install-tmp-');
      const run = spawnSync('sh', [], {
        input: `${lines.slice(0, cut).join('\n')}\n`,
        env: cleanEnv({ TOKENCLI_DOWNLOAD_URL: server.url, TOKENCLI_INSTALL_DIR: installDir, TMPDIR: tmp }),
        encoding: 'utf8',
      });
      if (cut > mainStarts && cut <= mainEnds) expect(run.status, `cut after line ${cut}`).not.toBe(0);
      expect(existsSync(installDir), `cut after line ${cut}`).toBe(false);
      expect(readdirSync(tmp), `cut after line ${cut}`).toEqual([]);
    }
    expect(server.requests()).toEqual([]);
  });

  test.runIf(process.platform === 'linux')('a hang-up mid-download leaves nothing behind', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    // A curl that fetches SHA256SUMS and then stalls on the archive, as a slow link would.
    const bin = tempDir('tokencli-slow-curl-');
    const realCurl = spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(
      join(bin, 'curl'),
      `#!/bin/sh\ncase "$*" in *.tar.gz*) exec sleep 30 ;; esac\nexec ${realCurl} "$@"\n`,
      { mode: 0o755 },
    );
    const installDir = join(tempDir('tokencli-install-home-'), 'bin');
    const tmp = tempDir('tokencli-install-tmp-');
    const child = spawn('sh', [script], {
      detached: true,
      stdio: 'ignore',
      env: cleanEnv({
        TOKENCLI_DOWNLOAD_URL: server.url,
        TOKENCLI_VERSION: '9.8.7',
        TOKENCLI_INSTALL_DIR: installDir,
        TMPDIR: tmp,
        PATH: `${bin}${delimiter}${process.env.PATH}`,
      }),
    });
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    for (let i = 0; i < 200 && !server.requests().some((r) => r.path === '/SHA256SUMS'); i++)
      await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 200));
    expect(readdirSync(tmp)).toHaveLength(1);
    // The terminal hangs up: the whole process group gets SIGHUP.
    process.kill(-(child.pid ?? 0), 'SIGHUP');
    expect(await exited).toBe(129);
    expect(readdirSync(tmp)).toEqual([]);
    expect(existsSync(installDir)).toBe(false);
  });

  /** curl, and without it wget and (where installed) wget2 as wget: install.sh's downloaders. */
  function downloaders(): Array<[string, Record<string, string>]> {
    const each: Array<[string, Record<string, string>]> = [['curl', {}]];
    if (process.platform === 'linux')
      each.push(['wget', { PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'wget']) }]);
    if (wget2) each.push(['wget2', { PATH: pathWithWget2(), HOME: tempDir('tokencli-wget2-home-') }]);
    return each;
  }

  // A mirror's endless file is a stream with no Content-Length that ends only far past the limit:
  // a script without one then fails here rather than filling the disk. That each download was
  // given up mid-way shows in what the server sent before the client went away.
  test('an endless SHA256SUMS is cut off at 64 KiB, with each downloader, and nothing is kept', async () => {
    const { dir } = fakeRelease('9.8.7');
    const size = 64 * 2 ** 20;
    const server = await serveOversized(dir, 'SHA256SUMS', size);
    servers.push(server);
    const each = downloaders();
    const message =
      /^tokencli install: cannot download http:\/\/127\.0\.0\.1:\d+\/SHA256SUMS \(larger than 64 KiB, far more than a release's: refused\)$/m;
    for (const [name, env] of each) {
      const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', ...env });
      expect(run.stderr, name).toMatch(message);
      expectRefused(run, message);
    }
    expect(server.requests().map((r) => r.path)).toEqual(each.map(() => '/SHA256SUMS'));
    const sent = await server.streamed();
    expect(sent).toHaveLength(each.length);
    for (const bytes of sent) expect(bytes).toBeLessThan(size / 4);
  });

  // A writer killed at the limit by SIGXFSZ, whose default is to dump core: where core dumps are
  // allowed and land in the working directory (core_pattern `core`), the user's directory would
  // get the downloader's memory.
  const corePattern = existsSync('/proc/sys/kernel/core_pattern')
    ? readFileSync('/proc/sys/kernel/core_pattern', 'utf8').trim()
    : undefined;
  const coreHardLimit = spawnSync('sh', ['-c', 'ulimit -Hc'], { encoding: 'utf8' }).stdout.trim();
  const coresHere = corePattern !== undefined && !corePattern.startsWith('|') && !corePattern.includes('/');
  const noCores = !coresHere
    ? `core dumps do not land in the working directory here (core_pattern ${corePattern ?? 'unknown'})`
    : coreHardLimit === '0'
      ? 'core dumps are off here (ulimit -Hc 0)'
      : undefined;
  test.skipIf(noCores !== undefined)(
    `a download cut off at its limit dumps no core into the working directory, where dumps are allowed${noCores ? ` (skipped: ${noCores})` : ''}`,
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serveOversized(dir, 'SHA256SUMS', 64 * 2 ** 20);
      servers.push(server);
      for (const [name, env] of downloaders()) {
        const cwd = tempDir('tokencli-install-cwd-');
        const tmp = tempDir('tokencli-install-tmp-');
        const run = spawnSync(
          'sh',
          ['-c', 'ulimit -c unlimited && exec "$@"', 'sh', ...defaultShell, script],
          {
            cwd,
            env: cleanEnv({
              TOKENCLI_DOWNLOAD_URL: server.url,
              TOKENCLI_VERSION: '9.8.7',
              TOKENCLI_INSTALL_DIR: join(tempDir('tokencli-install-home-'), 'bin'),
              TMPDIR: tmp,
              ...env,
            }),
            encoding: 'utf8',
            timeout: 60_000,
          },
        );
        expect(run.stderr, name).toMatch(/larger than 64 KiB, far more than a release's: refused\)$/m);
        expect(run.status, name).toBe(1);
        expect(readdirSync(cwd), name).toEqual([]);
        expect(readdirSync(tmp), name).toEqual([]);
      }
    },
  );

  test('an endless archive is cut off at 256 MiB, before its checksum, with each downloader', async () => {
    const { dir, archive } = fakeRelease('9.8.7');
    const size = 2 ** 30;
    const server = await serveOversized(dir, archive, size);
    servers.push(server);
    const each = downloaders();
    const message = new RegExp(
      `^tokencli install: cannot download http://127\\.0\\.0\\.1:\\d+/${archive.replaceAll('.', '\\.')} \\(larger than 256 MiB, far more than a release's: refused\\)$`,
      'm',
    );
    for (const [name, env] of each) {
      const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', ...env });
      expect(run.stderr, name).toMatch(message);
      expectRefused(run, message);
    }
    const sent = await server.streamed();
    expect(sent).toHaveLength(each.length);
    for (const bytes of sent) {
      expect(bytes).toBeGreaterThanOrEqual(256 * 2 ** 20);
      expect(bytes).toBeLessThan(size / 2);
    }
  });

  test("a lower limit on a file's size the user has is kept, and named when a download meets it", async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serveOversized(dir, 'SHA256SUMS', 64 * 2 ** 20);
    servers.push(server);
    // 64 blocks: 32 KiB where sh counts blocks of 512 bytes, 64 KiB where it counts 1024 (bash 3.2,
    // macOS's sh); neither is above install.sh's 64 KiB for SHA256SUMS.
    const limited = ['sh', '-c', 'ulimit -f 64 && exec sh "$0"', script];
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7' }, limited),
      /cannot download \S+\/SHA256SUMS \(larger than the limit on a file's size here \(ulimit -f 64\)\)$/m,
    );
    expect(await server.streamed()).toHaveLength(1);
  });

  // bash counts ulimit -f in blocks of 1024 bytes when run as bash, and bash 3.2 (macOS's sh) even
  // as sh, where dash and the others count 512: install.sh measures which, so that a limit is the
  // same size in each. Taken for blocks of 512, bash's limit for 64 KiB would be 128 KiB.
  test('a download just past its limit is refused in a shell that counts ulimit -f in 1024 bytes too', async () => {
    const { dir } = fakeRelease('9.8.7');
    // Its checksum line, then lines of nothing any reader takes: just over 81 KiB in all.
    appendFileSync(join(dir, 'SHA256SUMS'), `${'#'.repeat(1023)}\n`.repeat(81));
    const server = await serve(dir);
    for (const shell of ['sh', 'bash'])
      expectRefused(
        install(server.url, { TOKENCLI_VERSION: '9.8.7' }, [shell, script]),
        /cannot download \S+\/SHA256SUMS \(larger than 64 KiB, far more than a release's: refused\)$/m,
      );
    // Refused for its size alone: the same list unpadded installs, in bash too.
    writeSums(dir);
    const unpadded = install(server.url, { TOKENCLI_VERSION: '9.8.7' }, ['bash', script]);
    expect(unpadded.status, unpadded.stderr).toBe(0);
  });

  // Where setting a limit fails (a shell or system that refuses it), the downloads run unbounded
  // rather than not at all. A function in place of the shell's ulimit stands in for such a shell:
  // a hard limit would not, as lowering one always works.
  /**
   * install.sh run by sh with its `ulimit` a shell function that fails, as a shell that may not do
   * it would, whenever REFUSED (a test of its arguments) holds: an install that must go through
   * all the same. Gives each `ulimit -f` it was asked to set, in order.
   */
  async function installWithUlimit(refused: string, complaint: string): Promise<string[]> {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const log = join(tempDir('tokencli-ulimit-'), 'asked');
    writeFileSync(log, '');
    const shell = `ulimit() {
  if [ "$1" = -f ] && [ $# -gt 1 ]; then echo "$*" >>"$ULIMIT_LOG"; fi
  if ${refused}; then
    echo "ulimit: ${complaint}" >&2
    return 1
  fi
  command ulimit "$@"
}
. "$0"`;
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', ULIMIT_LOG: log }, [
      'sh',
      '-c',
      shell,
      script,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`tokencli 9.8.7 installed: ${join(run.installDir, 'tokencli')}\n`);
    expect(run.leftInTmp).toEqual([]);
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  }

  test('a shell that cannot set ulimit -f downloads unbounded, and installs', async () => {
    const asked = await installWithUlimit(
      '[ "$1" = -f ] && [ $# -gt 1 ]',
      'cannot modify limit: Operation not permitted',
    );
    // Both limits were asked for, and refused: 64 KiB and 256 MiB in blocks of 512 bytes.
    expect(asked).toContain('-f 128');
    expect(asked).toContain('-f 524288');
  });

  // Where the limit in force cannot be read, a lower one the user may have cannot be told from
  // none: no limit is set, rather than one that might raise it (only root may) and fail.
  test('a shell whose ulimit -f cannot even be read downloads unbounded, and installs', async () => {
    const asked = await installWithUlimit('[ "$1" = -f ] && [ $# = 1 ]', 'cannot read limit');
    // Only the unit was measured (a limit of one block, in a subshell of its own); no bound was set.
    expect(asked).toEqual(['-f 1', '-f 1']);
  });

  /**
   * `command` with a tmpfs of 256 KiB mounted at `at` first, in a mount namespace of its own; what
   * the tmpfs held when the command ended is the last line of stdout, after "left:".
   */
  function onSmallTmpfs(at: string, command: string[]): string[] {
    const wrapper = `"$MOUNT" -t tmpfs -o size=256k tmpfs "$1" || exit 97
at=$1
shift
"$@"
status=$?
printf 'left:%s\\n' "$(ls -A "$at")"
exit $status`;
    return [unshare ?? 'unshare', '-rm', 'sh', '-c', wrapper, 'sh', at, ...command];
  }

  // A full disk. In TMPDIR, the downloader's words for it are lost, as the log they go to cannot be
  // written either, and GNU tar's say only that a write fell short ("Wrote only 4608 of 10240
  // bytes"): the refusal says there is no room, and where. In the install directory, cp says it.
  test.skipIf(!tmpfsMountable)(
    'a disk that fills up is said so, in the download, the unpacking or the install, and leaves nothing',
    async () => {
      // Random text does not compress: its archive, about 1 MB, cannot be downloaded into 256 KiB.
      const big = fakeRelease(
        '9.8.7',
        THIS_PLATFORM,
        `#!/bin/sh\necho 9.8.7\n# ${randomBytes(750_000).toString('base64')}\n`,
      );
      // One character a million times: an archive of a few KiB whose tokencli is 1 MB.
      const deep = fakeRelease('9.8.7', THIS_PLATFORM, `#!/bin/sh\necho 9.8.7\n# ${'x'.repeat(1_000_000)}\n`);
      const bigServer = await serve(big.dir);
      const deepServer = await serve(deep.dir);
      const noRoom = String.raw`\(no room left in \S+, a full disk or a quota: set TMPDIR to a directory with room\)`;
      const escaped = (text: string) => text.replace(/[.]/g, '\\.');
      for (const [downloader, env] of downloaders()) {
        const settings = { ...env, TOKENCLI_VERSION: '9.8.7', MOUNT: mount ?? 'mount' };
        const tmp = tempDir('tokencli-install-tmp-');
        const downloading = install(
          bigServer.url,
          { ...settings, TMPDIR: tmp },
          onSmallTmpfs(tmp, [...defaultShell, script]),
        );
        const unpacking = install(
          deepServer.url,
          { ...settings, TMPDIR: tmp },
          onSmallTmpfs(tmp, [...defaultShell, script]),
        );
        const home = tempDir('tokencli-install-home-');
        const installing = install(
          deepServer.url,
          { ...settings, TOKENCLI_INSTALL_DIR: join(home, 'bin') },
          onSmallTmpfs(home, [...defaultShell, script]),
        );
        installing.installDir = join(home, 'bin');
        for (const [run, said] of [
          [downloading, `cannot download ${escaped(`${bigServer.url}/${big.archive}`)} ${noRoom}`],
          [unpacking, `cannot unpack ${escaped(deep.archive)} ${noRoom}`],
          [installing, `cannot write to ${escaped(join(home, 'bin'))} \\(cp: .*No space left on device\\)`],
        ] as const) {
          // Nothing left on the full disk either: the part downloaded, the directories made.
          expect(run.stdout, `${downloader}: ${said}`).toBe('left:\n');
          run.stdout = '';
          expectRefused(run, new RegExp(`^tokencli install: ${said}\n$`));
        }
      }
    },
  );
  test.skipIf(tmpfsMountable)(
    'a disk that fills up (skipped: no tmpfs can be mounted in a namespace of its own, unshare -rm)',
    () => {},
  );

  test('an unknown operating system or processor is refused before anything is downloaded', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    for (const [flag, answer, message] of [
      ['-s', 'Plan9', /no tokencli release for this operating system \(Plan9\); it runs with Node\.js/],
      ['-m', 'mips64', /no tokencli release for this processor \(mips64\); it runs with Node\.js/],
    ] as const) {
      const bin = tempDir('tokencli-fake-uname-');
      // The fake answers the one question it is about and passes the other to the real uname.
      writeFileSync(
        join(bin, 'uname'),
        `#!/bin/sh\n[ "$1" = ${flag} ] && { echo ${answer}; exit 0; }\nexec /usr/bin/env -i uname "$@"\n`,
        { mode: 0o755 },
      );
      expectRefused(
        install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: `${bin}${delimiter}${process.env.PATH}` }),
        message,
      );
    }
    expect(server.requests()).toEqual([]);
  });

  // Read first, then run: `sh install.sh --help` must not be the install itself.
  test('--help and -h say what it does and its settings, and do nothing else', async () => {
    const { dir } = fakeRelease(version);
    const server = await serve(dir);
    const runs = [
      install(server.url, {}, [...defaultShell, script, '--help']),
      install(server.url, {}, [...defaultShell, script, '-h', 'and', 'more']),
      // `curl … | sh -s -- --help`
      install(server.url, {}, [...defaultShell, '-s', '--', '--help'], readFileSync(script, 'utf8')),
    ];
    for (const run of runs) {
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^usage: sh install\.sh\n/);
      expect(run.stdout).toContain(`releases/download/v${version}/install.sh | sh\n`);
      for (const setting of ['TOKENCLI_VERSION', 'TOKENCLI_INSTALL_DIR', 'TOKENCLI_DOWNLOAD_URL'])
        expect(run.stdout).toContain(`\n  ${setting} `);
      expect(run.stdout).toContain(`(default: ${version}, this script's)`);
      expect(run.stdout).toContain('TOKENCLI_INSTALL_DIR="$HOME/bin" sh\n');
      expect(run.stdout).toContain('run by sudo (or doas), it installs only into a TOKENCLI_INSTALL_DIR\n');
      expect(run.stdout).toContain('\n  https_proxy or HTTPS_PROXY, no_proxy or NO_PROXY\n');
      expect(run.stdout).toContain('\n  CURL_CA_BUNDLE (curl), WGETRC with ca_certificate (wget)\n');
      expect(existsSync(run.installDir)).toBe(false);
      expect(run.leftInTmp).toEqual([]);
    }
    expect(server.requests()).toEqual([]);
  });

  test('an argument is refused, as the settings are environment variables, before anything is downloaded', async () => {
    const { dir } = fakeRelease(version);
    const server = await serve(dir);
    const said =
      /^tokencli install: install\.sh takes no arguments \(given '(.*)'\): its settings are environment variables, such as TOKENCLI_VERSION=\d+\.\d+\.\d+; sh install\.sh --help lists them\n$/;
    for (const args of [[version], ['--version'], ['-y', '--force'], ['--', 'x']]) {
      const run = install(server.url, {}, [...defaultShell, script, ...args]);
      expectRefused(run, said);
      expect(said.exec(run.stderr)?.[1]).toBe(args[0]);
    }
    // A hostile argument, cleaned as every value a refusal names.
    expect(install(server.url, {}, [...defaultShell, script, '1\n2\x1b[31m']).stderr).toMatch(/given '1 2'/);
    expect(server.requests()).toEqual([]);
  });

  test('a version that is not exact is refused', () => {
    expectRefused(
      install('http://127.0.0.1:9', { TOKENCLI_VERSION: '../../x' }),
      /TOKENCLI_VERSION must be an exact version/,
    );
  });

  test('a refusal that names a value with a line break or an escape sequence is still one plain line', () => {
    const run = install('http://127.0.0.1:9', { TOKENCLI_VERSION: '1\n2\x1b]0;owned\x07\x1b[31m' });
    expect(run.stderr).toBe(
      "tokencli install: TOKENCLI_VERSION must be an exact version such as 0.1.0, not '1 2'\n",
    );
    expect(run.status).toBe(1);
  });

  test.each([
    [
      'plain http to another machine',
      'http://192.0.2.1:8080/mirror',
      /TOKENCLI_DOWNLOAD_URL: plain http:\/\/ is refused for a host other than this machine/,
    ],
    ['a loopback address as user name', 'http://127.0.0.1@192.0.2.1/mirror', /plain http:\/\/ is refused/],
    ['a loopback-looking host name', 'http://127.0.0.1.example.com/mirror', /plain http:\/\/ is refused/],
    [
      'another scheme',
      'ftp://127.0.0.1/mirror',
      /TOKENCLI_DOWNLOAD_URL must be an https:\/\/ URL, not ftp:\/\/127\.0\.0\.1\/mirror$/m,
    ],
    [
      'a query',
      'https://mirror.example.com/r?sig=1',
      /is the base the release's file names are appended to: no \?query, #fragment or backslash/,
    ],
    ['a backslash', 'http://192.0.2.1\\@127.0.0.1/mirror', /no \?query, #fragment or backslash/],
  ])(
    'a download URL that would not be checked is refused before anything is downloaded: %s',
    (_, url, message) => {
      expectRefused(install(url, { TOKENCLI_VERSION: '9.8.7' }), message);
    },
  );

  test('the password of a mirror URL is never printed', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const port = new URL(server.url).port;
    const run = install(`http://someone:s3cret@127.0.0.1:${port}/nowhere`, { TOKENCLI_VERSION: '9.8.7' });
    expectRefused(run, new RegExp(`cannot download http://127\\.0\\.0\\.1:${port}/nowhere/SHA256SUMS \\(`));
    expect(run.stderr).not.toContain('s3cret');
  });

  test.skipIf(opensslMissing !== undefined || process.platform !== 'linux')(
    'a redirect from https to plain http is refused, by curl, wget and wget2; https to https is followed',
    async () => {
      const { tls, secure } = await secureRelease();
      // Each downloader trusts the test's certificate.
      const wgetrc = join(tls.dir, 'wgetrc');
      writeFileSync(wgetrc, `ca_certificate = ${tls.certFile}\n`);
      const wget2rc = join(tls.dir, 'wget2rc');
      writeFileSync(wget2rc, `ca-certificate = ${tls.certFile}\n`);
      const downloaders = {
        curl: { PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'curl']), CURL_CA_BUNDLE: tls.certFile },
        wget: { PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'wget']), WGETRC: wgetrc },
        // wget2 keeps files of its own in HOME.
        ...(wget2
          ? { wget2: { PATH: pathWithWget2(), WGET2RC: wget2rc, HOME: tempDir('tokencli-wget2-home-') } }
          : {}),
      };
      for (const [name, env] of Object.entries(downloaders)) {
        const followed = install(`${secure.url}/secure`, { TOKENCLI_VERSION: '9.8.7', ...env });
        expect(followed.status, `${name}: ${followed.stderr}`).toBe(0);
        expectRefused(
          install(`${secure.url}/plain`, { TOKENCLI_VERSION: '9.8.7', ...env }),
          /cannot download https:\S+\/plain\/SHA256SUMS \(the download was redirected to plain http:\/\/, which is refused\)$/m,
        );
      }
    },
  );

  // Behind a proxy, as a corporate network or a self-hosted runner has one: curl reads HTTPS_PROXY
  // and NO_PROXY as well as the lower-case names, as tokencli does; GNU wget only the lower-case
  // ones, which install.sh gives it. (wget2 1.99, Debian 12's, speaks TLS to an http:// proxy
  // rather than CONNECT through it, and busybox's wget checks no certificate: neither is tried.)
  test.skipIf(opensslMissing !== undefined || process.platform !== 'linux')(
    'through a proxy in HTTPS_PROXY or https_proxy, by curl and wget alike; a host in NO_PROXY is reached without it',
    async () => {
      const { tls, secure } = await secureRelease('DNS:release.invalid,IP:127.0.0.1');
      const proxy = await serveConnectProxy();
      servers.push(proxy);
      const wgetrc = join(tls.dir, 'wgetrc');
      writeFileSync(wgetrc, `ca_certificate = ${tls.certFile}\n`);
      const downloaders = {
        curl: { PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'curl']), CURL_CA_BUNDLE: tls.certFile },
        wget: { PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'wget']), WGETRC: wgetrc },
      };
      const port = new URL(secure.url).port;
      // A name no resolver answers (.invalid): only the proxy, which sends it to 127.0.0.1, reaches it.
      const throughProxy = `https://release.invalid:${port}/files`;
      const deadProxy = `http://127.0.0.1:${await closedPort()}`;
      for (const [name, env] of Object.entries(downloaders)) {
        for (const variable of ['HTTPS_PROXY', 'https_proxy']) {
          const run = install(throughProxy, { TOKENCLI_VERSION: '9.8.7', ...env, [variable]: proxy.url });
          expect(run.status, `${name}, ${variable}: ${run.stderr}`).toBe(0);
          expect(run.stdout).toContain('tokencli 9.8.7 installed: ');
          // The lower-case name comes first, as curl has it.
          const first = install(throughProxy, {
            TOKENCLI_VERSION: '9.8.7',
            ...env,
            https_proxy: proxy.url,
            HTTPS_PROXY: deadProxy,
          });
          expect(first.status, `${name}, both: ${first.stderr}`).toBe(0);
        }
        // Straight to 127.0.0.1, named in NO_PROXY or no_proxy, while the proxy given is down.
        for (const variable of ['NO_PROXY', 'no_proxy']) {
          const direct = install(`${secure.url}/files`, {
            TOKENCLI_VERSION: '9.8.7',
            ...env,
            HTTPS_PROXY: deadProxy,
            [variable]: '127.0.0.1',
          });
          expect(direct.status, `${name}, ${variable}: ${direct.stderr}`).toBe(0);
        }
        // And without it, the proxy is used: down, it fails the install.
        expectRefused(
          install(`${secure.url}/files`, { TOKENCLI_VERSION: '9.8.7', ...env, HTTPS_PROXY: deadProxy }),
          /^tokencli install: cannot download https:\/\/127\.0\.0\.1:\d+\/files\/SHA256SUMS \(/,
        );
      }
      const tunnels = proxy.requests().map((request) => request.path);
      expect(new Set(tunnels)).toEqual(new Set([`CONNECT release.invalid:${port}`]));
      // SHA256SUMS and the archive, by three installs, by each downloader.
      expect(tunnels.length).toBeGreaterThanOrEqual(12);
    },
  );

  // busybox's wget has no CONNECT: given a proxy (it reads http_proxy for https too), it would send
  // `GET https://…` to it in clear text and take what came back, SHA256SUMS too.
  test.runIf(process.platform === 'linux' && programOnPath('busybox') !== undefined)(
    "busybox's wget is given no proxy: the proxy sees nothing, and the refusal says to install curl",
    async () => {
      const proxy = await serveConnectProxy();
      servers.push(proxy);
      const bin = pathWith([...INSTALL_TOOLS, 'sha256sum']);
      symlinkSync(programOnPath('busybox') ?? 'busybox', join(bin, 'wget'));
      const run = install('https://releases.invalid/files', {
        TOKENCLI_VERSION: '9.8.7',
        PATH: bin,
        http_proxy: proxy.url,
        https_proxy: proxy.url,
      });
      expectRefused(
        run,
        /busybox's wget takes no proxy \(it would send https to one in clear text\): install curl\)$/m,
      );
      expect(proxy.requests()).toEqual([]);
    },
  );

  // Debian 12's wget2 (1.99) speaks TLS to an http:// proxy where it should send CONNECT, and then
  // reports a certificate it could not verify; the refusal says what would work.
  const oldWget2 =
    wget2 !== undefined && /GNU Wget2 1\./.test(spawnSync(wget2, ['--version'], { encoding: 'utf8' }).stdout);
  test.runIf(process.platform === 'linux' && oldWget2)(
    'wget2 1.x behind a proxy is refused with install curl, not with a certificate to chase',
    async () => {
      const proxy = await serveConnectProxy();
      servers.push(proxy);
      const run = install('https://releases.invalid/files', {
        TOKENCLI_VERSION: '9.8.7',
        PATH: pathWithWget2(),
        HOME: tempDir('tokencli-wget2-home-'),
        https_proxy: proxy.url,
      });
      expectRefused(run, /\): this wget2 \(1\.x\) cannot reach https through a proxy; install curl\n$/);
    },
  );

  test('a proxy answering 407 is said to want credentials, by curl and wget', async () => {
    const proxy = await serveConnectProxy({ demandsCredentials: true });
    servers.push(proxy);
    for (const downloader of ['curl', 'wget']) {
      const run = install('https://releases.invalid/files', {
        TOKENCLI_VERSION: '9.8.7',
        PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', downloader]),
        https_proxy: proxy.url,
      });
      expectRefused(
        run,
        /^tokencli install: cannot download https:\/\/releases\.invalid\/files\/SHA256SUMS \(the proxy answered 407 Proxy Authentication Required: give its user and password in https_proxy, as http:\/\/USER:PASSWORD@HOST:PORT\)\n$/,
      );
    }
    expect(proxy.requests().length).toBeGreaterThanOrEqual(2);
  });

  test("a proxy's password is never printed, where wget names a proxy URL it cannot read either", async () => {
    const port = await closedPort();
    for (const downloader of ['curl', 'wget']) {
      for (const proxyUrl of [
        `alice:S3cr3t\\pw@127.0.0.1:${port}`,
        `http://alice:S3cr3t\\pw@127.0.0.1:${port}`,
      ]) {
        const run = install('https://releases.invalid/files', {
          TOKENCLI_VERSION: '9.8.7',
          PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', downloader]),
          https_proxy: proxyUrl,
          HTTPS_PROXY: proxyUrl,
        });
        expectRefused(run, /^tokencli install: cannot download /);
        expect(run.stderr, `${downloader}, ${proxyUrl}`).not.toContain('S3cr3t');
      }
    }
  });

  test.skipIf(opensslMissing !== undefined || process.platform !== 'linux')(
    'a certificate the downloader does not trust is refused with how to give it a CA',
    async () => {
      const { tls, secure } = await secureRelease();
      const emptyWgetrc = join(tls.dir, 'empty-wgetrc');
      writeFileSync(emptyWgetrc, '');
      for (const downloader of ['curl', 'wget'])
        expectRefused(
          install(`${secure.url}/files`, {
            TOKENCLI_VERSION: '9.8.7',
            PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', downloader]),
            CURL_CA_BUNDLE: undefined,
            SSL_CERT_FILE: undefined,
            WGETRC: emptyWgetrc,
          }),
          /\): if this network's proxy or mirror has a CA of its own, give the downloader its certificate \(CURL_CA_BUNDLE=FILE for curl; for wget, ca_certificate = FILE in the file WGETRC names\)$/m,
        );
    },
  );

  /**
   * `command` run where this system has no CA certificates, as in a slim container image before its
   * ca-certificates package is installed: an empty tmpfs over /etc/ssl (and /etc/pki, Fedora's), in
   * a mount namespace of its own.
   */
  function withoutCaCertificates(command: string[]): string[] {
    const wrapper = `for dir in /etc/ssl /etc/pki; do
  [ ! -d "$dir" ] || "$MOUNT" -t tmpfs -o size=64k tmpfs "$dir" || exit 97
done
exec "$@"`;
    return [unshare ?? 'unshare', '-rm', 'sh', '-c', wrapper, 'sh', ...command];
  }

  // The first thing a slim image's `apt-get install --no-install-recommends curl` meets: curl fails
  // with 77 (its CA file is missing), wget with 5 as for an untrusted server, and a hint about a
  // network's own CA would send the user after the wrong thing.
  test.skipIf(!tmpfsMountable || opensslMissing !== undefined || process.platform !== 'linux')(
    'a system with no CA certificates is told to install them, unless a CA was given to the downloader',
    async () => {
      const { tls, secure } = await secureRelease();
      const noCa = {
        CURL_CA_BUNDLE: undefined,
        SSL_CERT_FILE: undefined,
        SSL_CERT_DIR: undefined,
        WGETRC: undefined,
      };
      for (const downloader of ['curl', 'wget']) {
        const run = install(
          `${secure.url}/files`,
          {
            ...noCa,
            TOKENCLI_VERSION: '9.8.7',
            PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', downloader]),
            MOUNT: mount ?? 'mount',
          },
          withoutCaCertificates([...defaultShell, script]),
        );
        expectRefused(
          run,
          new RegExp(
            String.raw`\((${downloader}: \(${downloader === 'curl' ? 77 : 5}\)[^\n]*)\): this system has no CA certificates to check any server's with: install the ca-certificates package$`,
            'm',
          ),
        );
      }
      // A CA given to curl is used there, and a missing one is named by curl's own words alone.
      const given = install(
        `${secure.url}/files`,
        {
          ...noCa,
          TOKENCLI_VERSION: '9.8.7',
          PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'curl']),
          MOUNT: mount ?? 'mount',
          CURL_CA_BUNDLE: tls.certFile,
        },
        withoutCaCertificates([...defaultShell, script]),
      );
      expect(given.status, given.stderr).toBe(0);
      const missing = join(tls.dir, 'missing-ca.pem');
      expectRefused(
        install(
          `${secure.url}/files`,
          {
            ...noCa,
            TOKENCLI_VERSION: '9.8.7',
            PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'curl']),
            MOUNT: mount ?? 'mount',
            CURL_CA_BUNDLE: missing,
          },
          withoutCaCertificates([...defaultShell, script]),
        ),
        new RegExp(String.raw`\(curl: \(77\) [^\n]*${missing.replace(/[.]/g, '\\.')}[^\n]*\)$`, 'm'),
      );
    },
  );

  test.runIf(process.platform === 'linux')(
    'with neither curl nor wget, curl is what to install, with CA certificates where the system has none',
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const env = { TOKENCLI_VERSION: '9.8.7', PATH: pathWith([...INSTALL_TOOLS, 'sha256sum']) };
      expectRefused(
        install(server.url, env),
        /^tokencli install: neither curl nor wget is installed to download tokencli: install curl$/m,
      );
      expect(server.requests()).toEqual([]);
      if (!tmpfsMountable) return;
      // Over https, which needs them; a mirror on this machine over plain http does not.
      const noCa = {
        CURL_CA_BUNDLE: undefined,
        SSL_CERT_FILE: undefined,
        SSL_CERT_DIR: undefined,
        WGETRC: undefined,
      };
      expectRefused(
        install(
          'https://releases.invalid/files',
          { ...env, ...noCa, MOUNT: mount ?? 'mount' },
          withoutCaCertificates([...defaultShell, script]),
        ),
        /: install curl and the ca-certificates package$/m,
      );
      expectRefused(
        install(
          server.url,
          { ...env, ...noCa, MOUNT: mount ?? 'mount' },
          withoutCaCertificates([...defaultShell, script]),
        ),
        /: install curl$/m,
      );
    },
  );

  // A mirror over plain http is on this machine (nothing else is taken), where no proxy can reach
  // it; curl and wget would send it the requests all the same, and busybox's wget reads no no_proxy.
  test.runIf(process.platform === 'linux')(
    'a mirror on this machine over plain http is reached past every proxy variable, by each downloader',
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const deadProxy = `http://127.0.0.1:${await closedPort()}`;
      const proxies = Object.fromEntries(
        ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'].map((name) => [
          name,
          deadProxy,
        ]),
      );
      const downloaders: Record<string, Record<string, string>> = {
        curl: { PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'curl']) },
        wget: { PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'wget']) },
      };
      if (wget2) downloaders.wget2 = { PATH: pathWithWget2(), HOME: tempDir('tokencli-wget2-home-') };
      const busybox = programOnPath('busybox');
      if (busybox) {
        const bin = pathWith([...INSTALL_TOOLS, 'sha256sum']);
        symlinkSync(busybox, join(bin, 'wget'));
        downloaders['busybox wget'] = { PATH: bin };
      }
      const port = new URL(server.url).port;
      for (const [name, env] of Object.entries(downloaders))
        for (const url of [server.url, `http://localhost:${port}`]) {
          const run = install(url, { TOKENCLI_VERSION: '9.8.7', ...proxies, ...env });
          expect(run.status, `${name}, ${url}: ${run.stderr}`).toBe(0);
        }
    },
  );

  test.each([
    ['lines ending in CR LF', (sum: string, archive: string) => `${sum}  ${archive}\r\n`, true],
    [
      'the same line twice',
      (sum: string, archive: string) => `${sum}  ${archive}\n${sum}  ${archive}\n`,
      true,
    ],
    [
      'binary mode and upper case',
      (sum: string, archive: string) => `${sum.toUpperCase()} *${archive}\n`,
      true,
    ],
    [
      "a longer name that begins with the archive's",
      (sum: string, archive: string) => `${sum}  ${archive} (old)\n${sum}  other.tgz\n`,
      false,
    ],
  ])('SHA256SUMS is read as sha256sum -c reads it: %s', async (_, line, accepted) => {
    const { dir, archive } = fakeRelease('9.8.7');
    writeFileSync(join(dir, 'SHA256SUMS'), line(sha256File(join(dir, archive)), archive));
    const server = await serve(dir);
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7' });
    if (accepted) expect(run.status, run.stderr).toBe(0);
    else expectRefused(run, /SHA256SUMS has no checksum for/);
  });

  test("a SHA256SUMS that is no list of checksums (a mirror's page) is said to be one", async () => {
    const { dir } = fakeRelease('9.8.7');
    writeFileSync(join(dir, 'SHA256SUMS'), '<!doctype html>\n<title>Index of /</title>\n');
    const server = await serve(dir);
    expectRefused(
      install(server.url, { TOKENCLI_VERSION: '9.8.7' }),
      /\/SHA256SUMS is no list of checksums: is TOKENCLI_DOWNLOAD_URL the base of a release's files\?$/m,
    );
  });

  test('an archive whose tokencli or man page is a link elsewhere installs neither through it', async () => {
    const secret = join(tempDir('tokencli-victim-'), 'secret.txt');
    writeFileSync(secret, 'secret\n', { mode: 0o600 });
    const linked = releaseOf('9.8.7', { tokencli: { link: '/bin/sh' } });
    expectRefused(
      install((await serve(linked)).url, { TOKENCLI_VERSION: '9.8.7' }),
      new RegExp(`tokencli-9\\.8\\.7-${THIS_PLATFORM}\\.tar\\.gz holds no tokencli$`, 'm'),
    );
    const manLinked = releaseOf('9.8.7', {
      tokencli: '#!/bin/sh\necho 9.8.7\n',
      'tokencli.1': { link: secret },
    });
    const prefix = tempDir('tokencli-install-home-');
    mkdirSync(join(prefix, 'share'));
    const run = install((await serve(manLinked)).url, {
      TOKENCLI_VERSION: '9.8.7',
      TOKENCLI_INSTALL_DIR: join(prefix, 'bin'),
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('man page');
    expect(readdirSync(join(prefix, 'share'))).toEqual([]);
  });

  test.runIf(process.platform !== 'win32')(
    'under umask 000 nothing it makes is writable by others',
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const home = tempDir('tokencli-install-home-');
      mkdirSync(join(home, '.local', 'share'), { recursive: true, mode: 0o755 });
      const run = spawnSync('sh', ['-c', 'umask 000 && exec sh "$0"', script], {
        env: cleanEnv({ TOKENCLI_DOWNLOAD_URL: server.url, TOKENCLI_VERSION: '9.8.7', HOME: home }),
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      const made = [
        '.local/bin',
        '.local/bin/tokencli',
        '.local/share/man',
        '.local/share/man/man1',
        '.local/share/man/man1/tokencli.1',
      ];
      const modes = Object.fromEntries(
        made.map((path) => [path, (statSync(join(home, path)).mode & 0o777).toString(8)]),
      );
      expect(modes).toEqual({
        '.local/bin': '755',
        '.local/bin/tokencli': '755',
        '.local/share/man': '755',
        '.local/share/man/man1': '755',
        '.local/share/man/man1/tokencli.1': '644',
      });
    },
  );

  /** The line install.sh adds on stderr when others could replace tokencli through `dir`. */
  const exposedWarning = (dir: string) =>
    `tokencli install: warning: ${dir} can be written by other users, who could replace tokencli there; install into a directory only you can write (TOKENCLI_INSTALL_DIR)\n`;

  test('an install directory others can write (0777, not sticky) is warned of, and tokencli installed', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const installDir = tempDir('tokencli-shared-bin-');
    chmodSync(installDir, 0o777);
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe(exposedWarning(installDir));
    expect(run.stdout).toContain(`tokencli 9.8.7 installed: ${join(installDir, 'tokencli')}\n`);
    expect(lstatSync(join(installDir, 'tokencli')).isFile()).toBe(true);
  });

  test('a directory above the install directory that others can write is the one warned of', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const shared = tempDir('tokencli-shared-');
    chmodSync(shared, 0o777);
    const installDir = join(shared, 'home', 'bin');
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe(exposedWarning(shared));
    expect(existsSync(join(installDir, 'tokencli'))).toBe(true);
    // Reached through a link: the directories its target lies in are the ones that count.
    const linked = join(tempDir('tokencli-install-home-'), 'bin');
    symlinkSync(installDir, linked);
    const throughLink = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: linked });
    expect(throughLink.status, throughLink.stderr).toBe(0);
    expect(throughLink.stderr).toBe(exposedWarning(realpathSync(shared)));
  });

  test('a sticky (1777) directory above is not warned of, as it would be without the sticky bit', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    // As /tmp: others may add names there, but not remove or rename this user's.
    const sticky = tempDir('tokencli-sticky-');
    chmodSync(sticky, 0o1777);
    const installDir = join(sticky, 'bin');
    const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect((statSync(installDir).mode & 0o7777).toString(8)).toBe('755');
    chmodSync(sticky, 0o777);
    const unsticky = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir });
    expect(unsticky.status, unsticky.stderr).toBe(0);
    expect(unsticky.stderr).toBe(exposedWarning(sticky));
  });

  test('in a sticky directory, a directory of another user is warned of: its owner may replace what it holds', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const sticky = tempDir('tokencli-sticky-');
    chmodSync(sticky, 0o1777);
    const installDir = join(sticky, 'theirs');
    mkdirSync(installDir, { mode: 0o755 });
    // Root hands the directory to another user; anyone else takes another user's id for their own
    // (an `id` that says so), which makes their own directories another user's.
    const asRoot = process.getuid?.() === 0;
    const env: Record<string, string> = {};
    if (asRoot) chownSync(installDir, 4242, 4242);
    else {
      const bin = tempDir('tokencli-fake-id-');
      const id = '#!/bin/sh\n[ "$1" = -u ] && { echo 4242; exit 0; }\nexec /usr/bin/env -i id "$@"\n';
      writeFileSync(join(bin, 'id'), id, { mode: 0o755 });
      env.PATH = `${bin}${delimiter}${process.env.PATH}`;
    }
    const run = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      TOKENCLI_INSTALL_DIR: installDir,
      ...env,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe(exposedWarning(installDir));
  });

  test('the default install, and a group-writable directory (umask 002), say nothing of it; a home others can write does', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const home = tempDir('tokencli-install-home-');
    const byDefault = () =>
      spawnSync('sh', [script], {
        env: cleanEnv({ TOKENCLI_DOWNLOAD_URL: server.url, TOKENCLI_VERSION: '9.8.7', HOME: home }),
        encoding: 'utf8',
      });
    const good = byDefault();
    expect(good.status, good.stderr).toBe(0);
    expect(good.stderr).toBe('');
    // Advised by $HOME, as a profile shared between machines needs it.
    expect(good.stdout).toContain('e.g. export PATH="$HOME/.local/bin:$PATH"\n');
    expect(pastedPath(good.stdout, home)).toBe(`${join(home, '.local', 'bin')}:/usr/bin`);
    expect(existsSync(join(home, '.local', 'bin', 'tokencli'))).toBe(true);
    // Debian's user private groups: a group that holds this user alone.
    chmodSync(join(home, '.local', 'bin'), 0o775);
    chmodSync(home, 0o775);
    const group = byDefault();
    expect(group.status, group.stderr).toBe(0);
    expect(group.stderr).toBe('');
    chmodSync(home, 0o777);
    const exposed = byDefault();
    expect(exposed.status, exposed.stderr).toBe(0);
    expect(exposed.stderr).toBe(exposedWarning(home));
  });

  test.runIf(existsSync('/proc/sys/kernel/ns_last_pid'))(
    'names planted in the install directory for the next process ids are never written through',
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      // Another user's links at the names a run would stage under if it took its process id.
      const installDir = tempDir('tokencli-shared-bin-');
      const victim = join(tempDir('tokencli-victim-'), '.profile');
      writeFileSync(victim, 'export PATH\n');
      const last = Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'));
      for (let pid = last + 1; pid <= last + 300; pid++) {
        symlinkSync(victim, join(installDir, `.${pid}.tokencli`));
      }
      const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', TOKENCLI_INSTALL_DIR: installDir });
      expect(run.status, run.stderr).toBe(0);
      expect(readFileSync(victim, 'utf8')).toBe('export PATH\n');
      expect(lstatSync(join(installDir, 'tokencli')).isFile()).toBe(true);
      expect(readdirSync(installDir).filter((name) => !/^\.\d+\.tokencli$/.test(name))).toEqual(['tokencli']);
    },
  );

  test.runIf(process.platform === 'linux')('without curl, wget downloads', async () => {
    const { dir } = fakeRelease('9.8.7');
    const server = await serve(dir);
    const run = install(server.url, {
      TOKENCLI_VERSION: '9.8.7',
      PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'wget']),
    });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(run.installDir, 'tokencli'))).toBe(true);
    expect(server.requests().map((r) => r.userAgent)).toEqual([
      expect.stringMatching(/^Wget/),
      expect.stringMatching(/^Wget/),
    ]);
    // GNU wget's reason, without its timestamp, after what its exit status means.
    expectRefused(
      install(`${server.url}/nowhere`, {
        TOKENCLI_VERSION: '9.8.7',
        PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'wget']),
      }),
      /cannot download \S+\/SHA256SUMS \(wget: \(8\) server error response: ERROR 404: Not Found\.\): no release there; check TOKENCLI_DOWNLOAD_URL, the base URL of a release's files$/m,
    );
  });

  test.runIf(process.platform === 'linux')(
    'a failed wget is said by what its exit status means, with its own reason when it gives one',
    async () => {
      const url = `http://127.0.0.1:${await closedPort()}`;
      expectRefused(
        install(url, { TOKENCLI_VERSION: '9.8.7', PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'wget']) }),
        /cannot download \S+\/SHA256SUMS \(wget: \(4\) network failure: .*Connection refused.*\)$/m,
      );
      // A GNU wget whose -nv says nothing of why, as it may of a network failure.
      const silent = pathWith([...INSTALL_TOOLS, 'sha256sum']);
      writeFileSync(
        join(silent, 'wget'),
        '#!/bin/sh\n[ "$1" = --version ] && { echo "GNU Wget 1.21.3 built on linux-gnu."; exit 0; }\nexit 4\n',
        { mode: 0o755 },
      );
      expectRefused(
        install(url, { TOKENCLI_VERSION: '9.8.7', PATH: silent }),
        /^tokencli install: cannot download \S+\/SHA256SUMS \(wget: \(4\) network failure\)$/m,
      );
      // wget2 1.99 ends with status 0 when it cannot connect, having downloaded nothing.
      if (wget2)
        expectRefused(
          install(url, {
            TOKENCLI_VERSION: '9.8.7',
            PATH: pathWithWget2(),
            HOME: tempDir('tokencli-wget2-home-'),
          }),
          /^tokencli install: cannot download \S+\/SHA256SUMS \(wget: (nothing downloaded|\(4\) network failure): .*Connection refused.*\)$/m,
        );
    },
  );

  test('printable() drops escape sequences whole and control characters, and keeps the text', () => {
    // install.sh's own function, run alone in sh on what a server could send.
    const text = readFileSync(script, 'utf8');
    const fn = text.slice(
      text.indexOf('\nprintable() {') + 1,
      text.indexOf('\n}\n', text.indexOf('\nprintable() {')) + 3,
    );
    const hostile =
      'ERROR 404: Not Found \x1b]0;title\x07\x1b[31mred\x1b[0m \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ ' +
      '\x1bc\x01\x7f\u009b31mc1\tdone /home/jörg/ダウンロード [a] |b\\c\n';
    const run = spawnSync('sh', ['-c', `${fn}\nprintable`], { input: hostile, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('ERROR 404: Not Found red link 31mc1\tdone /home/jörg/ダウンロード [a] |b\\c\n');
  });

  test.runIf(process.platform === 'linux')(
    'a 410 (Gone) is a missing release as a 404 is, by curl, wget and wget2 (which ends with status 0 on it)',
    async () => {
      const server = await serveStatus(410, 'Gone');
      try {
        const downloaders: Array<[string, Record<string, string>]> = [
          ['curl', {}],
          ['wget', { PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'wget']) }],
        ];
        if (wget2)
          downloaders.push(['wget2', { PATH: pathWithWget2(), HOME: tempDir('tokencli-wget2-home-') }]);
        for (const [, env] of downloaders)
          expectRefused(
            install(server.url, { TOKENCLI_VERSION: '9.8.7', ...env }),
            /^tokencli install: cannot download \S+\/SHA256SUMS \(.*410.*\): no release there; check TOKENCLI_DOWNLOAD_URL, the base URL of a release's files$/m,
          );
      } finally {
        await server.close();
      }
    },
  );

  test.runIf(process.platform === 'linux')(
    "a server's words in a downloader's complaint reach the terminal without escape sequences",
    async () => {
      // GNU wget shows control characters as \\033 text itself; wget2 passes them on.
      const server = await serveHostileReason();
      try {
        const downloaders: Array<[string, Record<string, string>]> = [
          ['wget', { PATH: pathWith([...INSTALL_TOOLS, 'sha256sum', 'wget']) }],
        ];
        if (wget2)
          downloaders.push(['wget2', { PATH: pathWithWget2(), HOME: tempDir('tokencli-wget2-home-') }]);
        for (const [name, env] of downloaders) {
          const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', ...env });
          expectRefused(run, /cannot download \S+\/SHA256SUMS \(.*404.*\): no release there; /);
          expect(run.stderr, name).toContain('RED');
          // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
          expect(run.stderr, name).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
        }
      } finally {
        await server.close();
      }
    },
  );

  test.runIf(wget2 !== undefined)(
    'without curl, wget2 as wget (Fedora) downloads, and says why it cannot',
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const env = { TOKENCLI_VERSION: '9.8.7', PATH: pathWithWget2(), HOME: tempDir('tokencli-wget2-home-') };
      const run = install(server.url, env);
      expect(run.status, run.stderr).toBe(0);
      expect(existsSync(join(run.installDir, 'tokencli'))).toBe(true);
      expect(server.requests().map((r) => r.userAgent)).toEqual([
        expect.stringMatching(/^wget2/i),
        expect.stringMatching(/^wget2/i),
      ]);
      expectRefused(
        install(`${server.url}/nowhere`, env),
        /cannot download \S+\/SHA256SUMS \(wget: \(8\) server error response: HTTP ERROR response 404 .*\): no release there; check TOKENCLI_DOWNLOAD_URL, /,
      );
    },
  );

  test.runIf(process.platform === 'linux')(
    'without a SHA-256 tool nothing is downloaded or installed',
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const run = install(server.url, {
        TOKENCLI_VERSION: '9.8.7',
        PATH: pathWith([...INSTALL_TOOLS, 'curl']),
      });
      expectRefused(run, /no SHA-256 tool to verify the download \(sha256sum, shasum or openssl\)/);
      expect(server.requests()).toEqual([]);
    },
  );

  // Its exit status is lost in the pipe to cut; what it printed is no checksum, and no tampering.
  test.runIf(process.platform === 'linux')(
    'a SHA-256 tool that fails is said so in one line, not as a checksum mismatch',
    async () => {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const bin = pathWith([...INSTALL_TOOLS, 'curl']);
      writeFileSync(join(bin, 'sha256sum'), '#!/bin/sh\necho "sha256sum: cannot hash" >&2\nexit 1\n', {
        mode: 0o755,
      });
      const run = install(server.url, { TOKENCLI_VERSION: '9.8.7', PATH: bin });
      expectRefused(
        run,
        new RegExp(
          String.raw`^tokencli install: sha256sum did not compute the SHA-256 of tokencli-9\.8\.7-${THIS_PLATFORM}\.tar\.gz \(sha256sum: cannot hash\); nothing installed$`,
          'm',
        ),
      );
    },
  );

  test.runIf(process.platform === 'linux')('shasum or openssl stand in for sha256sum', async () => {
    for (const tool of ['shasum', 'openssl']) {
      const { dir } = fakeRelease('9.8.7');
      const server = await serve(dir);
      const run = install(server.url, {
        TOKENCLI_VERSION: '9.8.7',
        PATH: pathWith([...INSTALL_TOOLS, 'curl', tool]),
      });
      expect(run.status, `${tool}: ${run.stderr}`).toBe(0);
    }
  });
});
