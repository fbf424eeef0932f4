/**
 * Instruction counts for `npm run bench` (bench/cli.mjs): what a command's start costs in work,
 * whatever else the machine is doing. Wall times on a shared machine swing by a third between
 * runs; an instruction count under valgrind's callgrind does not, so a difference of a few
 * percent between two executables shows up as what it is.
 *
 * Counted: the instructions of the process's main thread outside V8's isolate set-up. That set-up
 * (v8::Isolate::Initialize, which node exports, so the count works on a stripped executable too)
 * derives the run's random hash seed, a step whose cost varies from run to run by several million
 * instructions; it is the same code for every node program. What is left — node's bootstrap, the
 * program, its exit — is repeatable to about 0.3 %. Kernel work (page faults, the loading of the
 * executable's pages) is not counted: the wall-time rows keep that.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ISOLATE_SET_UP = 'v8::Isolate::Initialize(';

/** Whether valgrind's callgrind and its annotator are on PATH (the annotator exits 255 on --version). */
export function canCountInstructions() {
  return ['valgrind', 'callgrind_annotate'].every(
    (tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).error === undefined,
  );
}

/** callgrind_annotate's count (`1,234 (5.6%)  file:function`) of the first line naming `fn`, or 0. */
function inclusiveCount(annotated, fn) {
  const line = annotated.split('\n').find((l) => l.includes(fn));
  return line ? Number(line.trim().split(' ')[0].replaceAll(',', '')) : 0;
}

/** One run of `args` under callgrind: its main thread's instructions outside the isolate set-up. */
function countOnce(args, env, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'callgrind.out');
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--separate-threads=yes', `--callgrind-out-file=${out}`, ...args],
    { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`valgrind ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  // With --separate-threads, one file per thread: NAME-01 is the main one.
  const main = join(dir, readdirSync(dir).find((f) => f.endsWith('-01')) ?? 'missing');
  const annotate = spawnSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', main], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (annotate.status !== 0) throw new Error(`callgrind_annotate failed: ${annotate.stderr}`);
  const total = inclusiveCount(annotate.stdout, 'PROGRAM TOTALS');
  const setUp = inclusiveCount(annotate.stdout, ISOLATE_SET_UP);
  if (total === 0 || setUp === 0) throw new Error(`callgrind: no totals or no ${ISOLATE_SET_UP}) in ${main}`);
  return total - setUp;
}

/** The median over `runs` runs, in instructions. */
export function countInstructions(args, env, dir, runs = 3) {
  const counts = Array.from({ length: runs }, () => countOnce(args, env, dir)).sort((a, b) => a - b);
  rmSync(dir, { recursive: true, force: true });
  return counts[runs >> 1];
}
