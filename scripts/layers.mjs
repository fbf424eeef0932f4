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
const bin = (name) => join(root, 'node_modules', '.bin', name);

const run = (command, args, env = process.env) =>
  spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;

rmSync(out, { recursive: true, force: true });
let status = run(bin('tsc'), ['-p', 'tsconfig.build.json', '--outDir', out, '--declaration', 'false']);
if (status === 0) {
  status = run(bin('depcruise'), ['--config', '.dependency-cruiser.cjs', '.tmp/layers'], {
    ...process.env,
    LAYERS_ROOT: '.tmp/layers',
  });
}
rmSync(out, { recursive: true, force: true });
process.exit(status);
