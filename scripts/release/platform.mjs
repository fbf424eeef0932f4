import { basename } from 'node:path';

/** A release asset's `<os>-<arch>` (linux-x64, darwin-arm64, win-x64, …) and its archive's name. */
export function releasePlatform(platform = process.platform, arch = process.arch) {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[platform];
  if (!os || !['x64', 'arm64'].includes(arch)) throw new Error(`no tokencli release for ${platform}-${arch}`);
  return `${os}-${arch}`;
}

/**
 * The platforms a release is built for, each on its own runner: release.yml's build matrix, which
 * test/release/release-workflow.test.ts holds to this list. Intel macOS is best-effort: Node's
 * single executables are not supported there (the "Platform support" of its documentation: macOS
 * "arm64 only; x64 is not currently supported"), so a release goes out without darwin-x64's
 * archive when its build or smoke test fails; every other platform's archive is required
 * (collect.mjs).
 */
export const RELEASE_PLATFORMS = [
  { platform: 'linux', arch: 'x64', bestEffort: false },
  { platform: 'linux', arch: 'arm64', bestEffort: false },
  { platform: 'darwin', arch: 'arm64', bestEffort: false },
  { platform: 'darwin', arch: 'x64', bestEffort: true },
  { platform: 'win32', arch: 'x64', bestEffort: false },
];

/** Windows gets a .zip (what its users open), every other platform a .tar.gz. */
export function archiveName(version, platform = process.platform, arch = process.arch) {
  const target = releasePlatform(platform, arch);
  return `tokencli-${version}-${target}${target.startsWith('win-') ? '.zip' : '.tar.gz'}`;
}

/** tar: Windows' own (bsdtar, which reads and writes zip files), not a Git Bash GNU tar on PATH. */
export function tarCommand() {
  return process.platform === 'win32'
    ? `${process.env.SystemRoot ?? 'C:\\Windows'}\\System32\\tar.exe`
    : 'tar';
}

/**
 * How to run npm with `args`: npm's own script under this node when npm started this one
 * (npm_execpath naming npm-cli.js, as `npm run build:release` does), else `npm` on PATH. On
 * Windows `npm` is npm.cmd, which node starts only through a shell, and arguments given with
 * `shell: true` are deprecated (DEP0190): there npm must have started this script.
 */
export function npmCommand(args) {
  const cli = process.env.npm_execpath;
  if (cli && basename(cli) === 'npm-cli.js') return [process.execPath, [cli, ...args]];
  if (process.platform === 'win32') throw new Error('run this through npm (npm run build:release)');
  return ['npm', args];
}
