/**
 * The release workflow's last step before upload: `node scripts/release/collect.mjs ARTIFACTS OUT`.
 * ARTIFACTS holds one directory per platform's build job (each a release/ of build-release.mjs);
 * OUT gets every platform's archive, the npm tarball (from the linux-x64 job: every job packs the
 * same package), install.sh, and one SHA256SUMS over all of them. Each job's own SHA256SUMS is
 * checked first, so a file damaged between the jobs is not signed off again. A refusal (a damaged
 * or missing file, another version's file, a platform's archive in another platform's job, a
 * platform's archive missing that is not best-effort, no npm tarball, an OUT that is not empty) is
 * one line naming it, exit 1; a best-effort platform's archive missing is said on stderr.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { BuildFailure, reportFailures } from './failure.mjs';
import { archiveName, RELEASE_PLATFORMS, releasePlatform } from './platform.mjs';

reportFailures('collect');

const [artifacts, out] = process.argv.slice(2).map((p) => resolve(p));
if (!artifacts || !out) throw new BuildFailure('usage: collect.mjs ARTIFACTS OUT');
if (!existsSync(artifacts)) throw new BuildFailure(`${artifacts} does not exist (the build jobs' artifacts)`);
if (!statSync(artifacts).isDirectory())
  throw new BuildFailure(`${artifacts} is not a directory (the build jobs' artifacts)`);
const root = resolve(import.meta.dirname, '../..');
const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The `[hash, name]` pairs of a job's SHA256SUMS, as sha256sum writes them (`HASH  NAME`). */
function sums(job) {
  const file = join(artifacts, job, 'SHA256SUMS');
  if (!existsSync(file)) throw new BuildFailure(`${job}/SHA256SUMS is missing`);
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new BuildFailure(`${job}/SHA256SUMS cannot be read (${error.code ?? error.message})`);
  }
  return text
    .split(/\r?\n/)
    .filter(Boolean)
    .map((line) => {
      const [, hash, name] = /^([0-9a-f]{64}) [ *](.+)$/.exec(line) ?? [];
      // A name is a file of the job's own directory, never a path out of it.
      if (!hash || !name || name !== basename(name) || name.startsWith('.'))
        throw new BuildFailure(`${job}/SHA256SUMS has a line that is not \`SHA256  NAME\`: ${line}`);
      return [hash, name];
    });
}

// A directory of its own: files left from another collection would be signed off and released too.
if (existsSync(out) && readdirSync(out).length > 0)
  throw new BuildFailure(`${out} is not empty: collect into a new directory`);
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** This version's files as the build names them: each platform's archive (platform.mjs), the npm tarball. */
const thisRelease = new Set([
  `tokencli-${version}.tgz`,
  ...['linux', 'darwin', 'win32'].flatMap((os) =>
    ['x64', 'arm64'].map((arch) => archiveName(version, os, arch)),
  ),
]);
/** Each platform's archive name, and the platform (linux-x64) whose job builds it. */
const archiveTargets = new Map(
  RELEASE_PLATFORMS.map(({ platform, arch }) => [
    archiveName(version, platform, arch),
    releasePlatform(platform, arch),
  ]),
);
mkdirSync(out, { recursive: true });
let tarballs = 0;
for (const job of readdirSync(artifacts).sort()) {
  const dir = join(artifacts, job);
  for (const [hash, name] of sums(job)) {
    const path = join(dir, name);
    if (!existsSync(path)) throw new BuildFailure(`${job}/${name} is in its SHA256SUMS but missing`);
    if (sha256(path) !== hash) throw new BuildFailure(`${job}/${name} does not match its SHA256SUMS`);
    const isArchive = /^tokencli-.+-(linux|darwin|win)-(x64|arm64)\.(tar\.gz|zip)$/.test(name);
    const isTarball = name.endsWith('.tgz') && job.endsWith('linux-x64');
    // Only this checkout's release: a job built from another commit is not released with it.
    if ((isArchive || isTarball) && !thisRelease.has(name))
      throw new BuildFailure(`${job}/${name} is not of this release, ${version} (package.json)`);
    // Each platform's archive from that platform's own job alone: another job's copy would replace
    // it, or stand in for a job whose files never came.
    const target = isArchive ? archiveTargets.get(name) : undefined;
    if (target && job !== `release-${target}`)
      throw new BuildFailure(
        `${job}/${name} is the ${target} archive, which only release-${target} may hold`,
      );
    if (isArchive || isTarball) copyFileSync(path, join(out, name));
    if (isTarball) tarballs++;
  }
}
// Every platform's archive but a best-effort one's (platform.mjs): a build job whose files did not
// arrive must not leave that platform's users without the release, unnoticed.
for (const { platform, arch, bestEffort } of RELEASE_PLATFORMS) {
  if (existsSync(join(out, archiveName(version, platform, arch)))) continue;
  const target = releasePlatform(platform, arch);
  if (!bestEffort)
    throw new BuildFailure(
      `no ${target} archive among the artifacts (release-${target}): only a best-effort platform's may be missing`,
    );
  console.error(
    `collect: no ${target} archive (release-${target}), a best-effort platform: released without it`,
  );
}
// npm publish (scripts/release/npm-publish.sh) takes the one tarball; a release without it would
// go out on GitHub only.
if (tarballs !== 1)
  throw new BuildFailure(`found ${tarballs} npm tarballs in the linux-x64 job's files, not exactly one`);
copyFileSync(join(root, 'install.sh'), join(out, 'install.sh'));
const names = readdirSync(out)
  .filter((n) => n !== 'SHA256SUMS')
  .sort();
writeFileSync(join(out, 'SHA256SUMS'), names.map((n) => `${sha256(join(out, n))}  ${n}\n`).join(''));
for (const name of readdirSync(out).sort()) console.log(name);
