/**
 * How the user ran tokencli, so text meant for pasting (the start-up hints of `serve`) names the
 * same command: `npx --yes tokencli@VERSION`, `node bin/tokencli.js`, the single executable as it
 * was typed, or `tokencli` when that is on PATH.
 * Judged from the script node runs (process.argv[1]), the one thing that says how it was reached;
 * the single executable runs no script, and there argv[1] is the command as the shell was given it.
 */
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { VERSION } from '../../../version.js';

export interface InvocationSource {
  /** process.argv */
  argv: readonly string[];
  /** process.env */
  env: Readonly<Record<string, string | undefined>>;
  /** process.cwd(), or undefined when the working directory is gone (removed under the shell). */
  cwd: string | undefined;
  /** process.execPath when this process is the single executable, else undefined. */
  executable?: string | undefined;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * The tarball or directory npx installed this tokencli from, when `entry` is one of npx's cache
 * entries (`…/_npx/<hash>/`, whose package.json depends on `tokencli` as `file:` relative to it).
 */
function npxLocalPackage(entry: string): string | undefined {
  if (basename(dirname(entry)) !== '_npx') return undefined;
  try {
    const manifest = JSON.parse(readFileSync(join(entry, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, unknown>;
    };
    const spec = manifest.dependencies?.tokencli;
    return typeof spec === 'string' && spec.startsWith('file:') ? resolve(entry, spec.slice(5)) : undefined;
  } catch {
    return undefined;
  }
}

/** A word for a POSIX shell: as it is when plain, else single-quoted. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/** Whether `path` is a file this process may run, as a shell's PATH search asks. */
function runnable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Whether a shell looking `name` up through PATH finds `file`: the first program of that name. */
function onPath(name: string, file: string, env: InvocationSource['env']): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const found = join(dir, name);
    if (runnable(found)) return sameFile(found, file);
  }
  return false;
}

/** A word first on a shell's line: quoted when it holds `=`, which there would make it an assignment. */
function commandWord(value: string): string {
  const word = shellWord(value);
  return word === value && value.includes('=') ? `'${value}'` : word;
}

/** `file` relative to `cwd` when inside it (as the user probably typed it), else undefined. */
function insideHere(cwd: string | undefined, file: string): string | undefined {
  if (cwd === undefined) return undefined;
  const fromHere = relative(cwd, file);
  return fromHere !== '' && !fromHere.startsWith(`..${sep}`) && !isAbsolute(fromHere) ? fromHere : undefined;
}

/**
 * The single executable, which needs no node. Node gives it the command as typed in argv[1] (a bare
 * name the shell found through PATH, or a path), and argv[0] becomes the executable's own path.
 * Named as typed when that still reaches this executable (a path from the working directory, where
 * the user typed it), else by its name when PATH finds it, else by its path.
 */
function executableInvocation(
  executable: string,
  typed: string | undefined,
  env: InvocationSource['env'],
  cwd: string | undefined,
): string {
  if (typed !== undefined && typed !== '') {
    // A relative path typed in a working directory that is gone reaches nothing now.
    const path = isAbsolute(typed) ? typed : cwd === undefined ? undefined : resolve(cwd, typed);
    const found =
      basename(typed) === typed
        ? onPath(typed, executable, env)
        : path !== undefined && sameFile(path, executable);
    if (found) return commandWord(typed);
  }
  const name = basename(executable);
  if (onPath(name, executable, env)) return commandWord(name);
  const fromHere = insideHere(cwd, executable);
  return commandWord(fromHere === undefined ? executable : `.${sep}${fromHere}`);
}

/** The command that runs this same tokencli again, as a shell would take it. */
export function invocation({ argv, env, cwd, executable }: InvocationSource): string {
  if (executable !== undefined) return executableInvocation(executable, argv[1], env, cwd);
  const script = argv[1];
  if (script === undefined) return 'tokencli';
  const name = basename(script);
  // A bin link in node_modules/.bin: npx, or an npm script of a project that depends on tokencli.
  // (Not judged from npm_command, which a test runner started with npx passes on to everything.)
  if (
    name === 'tokencli' &&
    basename(dirname(script)) === '.bin' &&
    basename(dirname(dirname(script))) === 'node_modules'
  ) {
    // A tarball or directory npx ran (`npx --package=./tokencli-X.tgz tokencli`) is named again;
    // anything else is pinned to this version: from another terminal or directory a bare
    // `npx tokencli` would run whatever the registry serves under that name, with the secrets.
    // --yes: the first line pipes the client secret into it, so npx cannot ask before installing.
    const local = npxLocalPackage(dirname(dirname(dirname(script))));
    return local === undefined
      ? `npx --yes tokencli@${VERSION}`
      : `npx --yes --package=${shellWord(local)} tokencli`;
  }
  // Run through a bin link on PATH (a global install): the bare name works.
  if (name === 'tokencli' && onPath(name, script, env)) return 'tokencli';
  // `node path/to/tokencli.js`: relative to here when inside it, as the user probably typed it.
  return `node ${shellWord(insideHere(cwd, script) ?? script)}`;
}
