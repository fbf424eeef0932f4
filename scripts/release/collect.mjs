/**
 * The release workflow's last step before upload: `node scripts/release/collect.mjs ARTIFACTS OUT`.
 * ARTIFACTS holds one directory per platform's build job (each a release/ of build-release.mjs);
 * OUT gets every platform's archive, the npm tarball (from the linux-x64 job: every job packs the
 * same package), install.sh, and one SHA256SUMS over all of them. Each job's own SHA256SUMS is
 * checked first, so a file damaged between the jobs is not signed off again.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [artifacts, out] = process.argv.slice(2).map((p) => resolve(p));
if (!artifacts || !out) throw new Error('usage: collect.mjs ARTIFACTS OUT');
const root = resolve(import.meta.dirname, '../..');
const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

mkdirSync(out, { recursive: true });
for (const job of readdirSync(artifacts)) {
  const dir = join(artifacts, job);
  for (const line of readFileSync(join(dir, 'SHA256SUMS'), 'utf8').split('\n').filter(Boolean)) {
    const [hash, name] = line.split(/ [ *]/);
    if (sha256(join(dir, name)) !== hash) throw new Error(`${job}/${name} does not match its SHA256SUMS`);
    const isArchive = /^tokencli-.+-(linux|darwin|win)-(x64|arm64)\.(tar\.gz|zip)$/.test(name);
    if (isArchive || (name.endsWith('.tgz') && job.endsWith('linux-x64')))
      copyFileSync(join(dir, name), join(out, name));
  }
}
copyFileSync(join(root, 'install.sh'), join(out, 'install.sh'));
const names = readdirSync(out)
  .filter((n) => n !== 'SHA256SUMS')
  .sort();
writeFileSync(join(out, 'SHA256SUMS'), names.map((n) => `${sha256(join(out, n))}  ${n}\n`).join(''));
for (const name of readdirSync(out).sort()) console.log(name);
