/**
 * The on-disk shape of `<config dir>/credentials.json` (docs/contract.md §2.7) and how a damaged one is
 * recognised and set aside:
 *
 *   { "version": 1, "profiles": { "<name>": { "tokens"?: TokenRecord, "client_secret"?: string } } }
 *
 * A file that cannot be read, is not JSON, or does not have this outer shape is corrupt as a whole:
 * it is moved to `credentials.json.corrupt-<timestamp>` (0600) and the store starts empty. A single
 * malformed profile entry or field is not: it is ignored with a warning, kept as it is while other
 * profiles are written, and the file is copied to a backup before that entry is overwritten.
 */
// Synchronous calls: quick single syscalls, and no node:fs/promises on the start-up path.
import { chmodSync, constants, copyFileSync, lstatSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { TokencliError } from '../errors.js';
import { readPrivateFile, tightenPrivateDir } from '../fs/private-files.js';

/** Profile entries are kept as read (unknown) so that rewriting one never alters another. */
export interface CredentialsDocument {
  version: 1;
  profiles: Record<string, unknown>;
}

export type LoadResult =
  | { ok: true; doc: CredentialsDocument; exists: boolean }
  | { ok: false; problem: string };

export function emptyDocument(): CredentialsDocument {
  return { version: 1, profiles: {} };
}

/**
 * Reads and checks the file. A symbolic link at `path` throws (TokencliError, exit 2); looser modes
 * of the file and its directory are tightened on the way.
 */
export async function loadCredentialsFile(path: string): Promise<LoadResult> {
  let text: string | undefined;
  try {
    text = await readPrivateFile(path);
  } catch (error) {
    // The symlink refusal and other TokencliErrors (whose `code` is theirs, not an errno) pass on.
    if (error instanceof TokencliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    return { ok: false, problem: `cannot read it: ${code}` };
  }
  if (text === undefined) return { ok: true, doc: emptyDocument(), exists: false };
  // The file was just read, so its directory is there: only its mode may need tightening.
  tightenPrivateDir(dirname(path));
  const problem = outerShapeProblem(text);
  if (typeof problem === 'string') return { ok: false, problem };
  return { ok: true, doc: problem.doc, exists: true };
}

function outerShapeProblem(text: string): string | { doc: CredentialsDocument } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'it is not valid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not a JSON object';
  const { version, profiles } = value as { version?: unknown; profiles?: unknown };
  if (version !== 1) return `unsupported "version" ${JSON.stringify(version) ?? 'undefined'} (expected 1)`;
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) {
    return '"profiles" is not an object';
  }
  return { doc: { version: 1, profiles: { ...(profiles as Record<string, unknown>) } } };
}

/** The entry of one profile as an object, or undefined when absent; `malformed` when it is not one. */
export function profileEntry(
  doc: CredentialsDocument,
  profile: string,
): Record<string, unknown> | 'malformed' | undefined {
  if (!Object.hasOwn(doc.profiles, profile)) return undefined;
  const entry = doc.profiles[profile];
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'malformed';
  return entry as Record<string, unknown>;
}

function backupName(path: string, attempt: number): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return `${path}.corrupt-${stamp}${attempt === 0 ? '' : `-${attempt}`}`;
}

async function freeBackupName(path: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const name = backupName(path, attempt);
    try {
      lstatSync(name);
    } catch {
      return name;
    }
  }
}

/** Moves a corrupt file aside (the caller holds the store's lock); returns the backup's path. */
export async function moveAside(path: string): Promise<string> {
  const backup = await freeBackupName(path);
  renameSync(path, backup);
  chmodSync(backup, 0o600);
  return backup;
}

/** Copies the file to a backup before a malformed entry in it is overwritten; returns its path. */
export async function copyAside(path: string): Promise<string> {
  const backup = await freeBackupName(path);
  copyFileSync(path, backup, constants.COPYFILE_EXCL);
  chmodSync(backup, 0o600);
  return backup;
}
