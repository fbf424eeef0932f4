#!/usr/bin/env node
/**
 * Checks the layer rules of src/ (.dependency-cruiser.cjs says which and why on compiled code):
 * compiles src/ with tsc into .tmp/layers/, then runs dependency-cruiser over it. Exits non-zero
 * on any violation, printing each. `npm run lint:layers`.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, '.tmp', 'layers');
// Each tool's own script, run by this node: node_modules/.bin holds shell wrappers, which Windows
// cannot start (and .cmd ones beside them).
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

const run = (script, args, env = process.env) => {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit', env });
  if (result.error) console.error(`layers: cannot run ${script}: ${result.error.message}`);
  return result.status ?? 1;
};

rmSync(out, { recursive: true, force: true });
let status = run(tsc, ['-p', 'tsconfig.build.json', '--outDir', out, '--declaration', 'false']);
if (status === 0) {
  status = run(depcruise, ['--config', '.dependency-cruiser.cjs', '.tmp/layers'], {
    ...process.env,
    LAYERS_ROOT: '.tmp/layers',
  });
}
rmSync(out, { recursive: true, force: true });
process.exit(status);
