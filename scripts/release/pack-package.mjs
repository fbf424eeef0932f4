/**
 * The release's npm tarball, the same bytes whatever the builder's umask: `npm pack` records each
 * file's mode as it finds it, and a checkout or a build under umask 077 leaves them 0600 (0700 for
 * the launcher). Such a tarball unpacked by anything but npm (which widens modes as it extracts)
 * gives files that only their owner can read, and it differs from every other builder's. So the
 * files npm would pack are copied to a stage with modes 0644, 0755 for an executable (the
 * launcher, whose mode git keeps, and any `bin` of package.json, which Windows gives no mode), and
 * the stage is packed.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { BuildFailure } from './failure.mjs';
import { npmCommand } from './platform.mjs';

/** The package's `bin` targets, as npm's file list names them (no leading `./`). */
function binaries(root) {
  const { bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const targets = typeof bin === 'string' ? [bin] : Object.values(bin ?? {});
  return new Set(targets.map((target) => posix.normalize(target)));
}

/**
 * The one package's report in `npm pack --json`'s output: npm 10 and 11 print an array of reports,
 * npm 12 an object of them by the package's name.
 */
function packReport(out) {
  const reports = JSON.parse(out);
  return (Array.isArray(reports) ? reports : Object.values(reports ?? {}))[0];
}

/** What `npm pack` would put into the tarball from ROOT: each file's path, relative and with `/`. */
function packedFiles(root) {
  const [command, args] = npmCommand(['pack', '--dry-run', '--json', '--ignore-scripts']);
  const out = execFileSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const files = packReport(out)?.files;
  if (!files?.length) throw new BuildFailure('npm pack --dry-run listed no files to pack');
  return files.map((file) => file.path);
}

/**
 * Packs ROOT's package into DESTINATION (its directory, which must exist) by way of STAGE, which
 * is made anew and removed; returns the tarball's path.
 */
export function packPackage(root, destination, stage) {
  const executables = binaries(root);
  rmSync(stage, { recursive: true, force: true });
  // Only files: the tarball holds no directory entries, so a directory's mode is never recorded.
  for (const file of packedFiles(root)) {
    const from = join(root, ...file.split('/'));
    const to = join(stage, ...file.split('/'));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    const executable =
      executables.has(file) || (process.platform !== 'win32' && (statSync(from).mode & 0o100) !== 0);
    chmodSync(to, executable ? 0o755 : 0o644);
  }
  const [command, args] = npmCommand([
    'pack',
    stage,
    '--ignore-scripts',
    '--json',
    '--pack-destination',
    destination,
  ]);
  const out = execFileSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  rmSync(stage, { recursive: true, force: true });
  const filename = packReport(out)?.filename;
  if (!filename) throw new BuildFailure('npm pack did not say which tarball it wrote');
  return join(destination, filename);
}
