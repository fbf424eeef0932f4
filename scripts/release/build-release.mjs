/**
 * `npm run build:release` (scripts/build.mjs runs it after the build, under the build lock): writes
 * release/ with exactly what a release uploads from this machine's platform —
 *
 * - tokencli-<version>-<os>-<arch>.tar.gz (.zip on Windows): the single executable
 *   (build-sea.mjs), LICENSE and the man page man/tokencli.1 when the build made one;
 * - the npm tarball (`npm pack`, its modes the same whatever the umask: pack-package.mjs);
 * - SHA256SUMS over those two, in the format `sha256sum -c` reads.
 *
 * The release workflow runs it on each platform's runner and joins their SHA256SUMS; what a
 * release holds is docs/contract.md §5.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { assertBuilt } from './built.mjs';
import { entryTime } from './entry-time.mjs';
import { reportFailures } from './failure.mjs';
import { exitStatus, interruptible, runChild } from './interruptible.mjs';
import { packPackage } from './pack-package.mjs';
import { archiveName, tarCommand } from './platform.mjs';

reportFailures('build-release');

/** tar's flags to record every entry as root's: GNU tar's (Linux), or bsdtar's (macOS). */
function rootOwned() {
  const tar = execFileSync('tar', ['--version'], { encoding: 'utf8' });
  return tar.includes('GNU tar')
    ? ['--owner=0', '--group=0', '--numeric-owner']
    : ['--uid', '0', '--gid', '0', '--uname', 'root', '--gname', 'root'];
}

const root = resolve(import.meta.dirname, '../..');
const release = join(root, 'release');
const scratch = join(root, '.tmp', 'release');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

assertBuilt(root);
const dated = await entryTime(root);
if (dated.why)
  console.error(
    `build-release: the archive's entries are dated now, as there is no commit to date them by (${dated.why}); set SOURCE_DATE_EPOCH for the same archive from every build`,
  );
rmSync(release, { recursive: true, force: true });
rmSync(scratch, { recursive: true, force: true });
mkdirSync(release, { recursive: true });

// Run without blocking node's event loop (interruptible.mjs), so that a signal to this process
// alone (a build.mjs interrupted, a cancelled job) stops build-sea too, which then cleans up; run
// by execFileSync, build-sea and the training it runs went on after this process had ended.
let exe;
try {
  exe = await interruptible(async (signal) => {
    try {
      const built = await runChild(
        process.execPath,
        [join(import.meta.dirname, 'build-sea.mjs'), join(scratch, 'sea')],
        { signal, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      return built.stdout.trim();
    } catch (error) {
      // Failed or stopped, it leaves no scratch (the executables it had begun, over a hundred
      // megabytes): the next release build would remove it, but `npm run build` never looks there.
      rmSync(scratch, { recursive: true, force: true });
      throw error;
    }
  });
} catch (error) {
  // build-sea said why on its stderr, which is this one's; one a signal ended (interruptible.mjs)
  // ends this one as the shell would say it, 128 + n.
  process.exit(exitStatus(error));
}

// The archive holds its files at its top, so `tar -xzf … tokencli` takes the executable alone.
const stage = join(scratch, 'stage');
mkdirSync(stage, { recursive: true });
const files = [exe.endsWith('.exe') ? 'tokencli.exe' : 'tokencli', 'LICENSE'];
copyFileSync(exe, join(stage, files[0]));
copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
if (existsSync(join(root, 'man', 'tokencli.1'))) {
  copyFileSync(join(root, 'man', 'tokencli.1'), join(stage, 'tokencli.1'));
  files.push('tokencli.1');
}
// Each entry as any builder's would be: modes 0755 and 0644 whatever the umask, dated at the
// commit (SOURCE_DATE_EPOCH when set), and owned by root, so that `tar -x` run as root (which keeps
// the owner it reads) makes nothing the build runner's user id owns.
for (const file of files) {
  chmodSync(join(stage, file), file === files[0] ? 0o755 : 0o644);
  if (dated.seconds !== undefined) utimesSync(join(stage, file), dated.seconds, dated.seconds);
}
const archive = join(release, archiveName(version));
if (archive.endsWith('.zip')) {
  execFileSync(tarCommand(), ['-a', '-cf', archive, '-C', stage, ...files]);
} else {
  // Compressed hardest: the executable is most of the archive (bench/cli.mjs measures its size).
  // macOS's tar would add the files' extended attributes (as `._NAME` entries): none wanted.
  const noMacMetadata = process.platform === 'darwin' ? ['--no-mac-metadata'] : [];
  const tar = execFileSync('tar', [...rootOwned(), ...noMacMetadata, '-cf', '-', '-C', stage, ...files], {
    env: { ...process.env, COPYFILE_DISABLE: '1' },
    maxBuffer: 1 << 30,
  });
  writeFileSync(archive, execFileSync('gzip', ['-9', '-n'], { input: tar, maxBuffer: 1 << 30 }));
}

// dist/ was just built: packing need not build it again (prepack).
const tarball = packPackage(root, release, join(scratch, 'package'));

// Over the files this build wrote, by name: not whatever release/ holds by now, which a step of a
// build killed outright may still have been writing into (CONTRIBUTING, "One build runs at a time").
const written = [basename(archive), basename(tarball)].sort();
const sums = written.map(
  (name) =>
    `${createHash('sha256')
      .update(readFileSync(join(release, name)))
      .digest('hex')}  ${name}\n`,
);
writeFileSync(join(release, 'SHA256SUMS'), sums.join(''));
rmSync(scratch, { recursive: true, force: true });
for (const name of ['SHA256SUMS', ...written]) console.log(`release/${name}`);
