/**
 * The `file` store (docs/contract.md §2.7): `<config dir>/credentials.json`, 0600 in a 0700 directory,
 * written to a temporary file and renamed, each read-modify-write under a lock so two processes
 * updating different profiles never lose each other's writes. See credentials-file.ts for the
 * format and how damaged files and entries are handled.
 */
import { TokencliError } from '../errors.js';
import { withFileLock } from '../fs/lock.js';
import { writePrivateFileAtomic } from '../fs/private-files.js';
import { listTempFiles, removeStaleTempFiles } from '../fs/stale-temp-files.js';
import {
  type CredentialsDocument,
  copyAside,
  emptyDocument,
  loadCredentialsFile,
  moveAside,
  profileEntry,
} from './credentials-file.js';
import { parseTokenRecord } from './token-record-shape.js';
import type { CredentialStore, TokenRecord } from './types.js';

export interface FileStoreOptions {
  /** The credentials file, normally `<config dir>/credentials.json`. */
  path: string;
  /** Receives complete `warning: …` lines (damaged file or entries). */
  warn: (line: string) => void;
  /** How long to wait for another process's write (default 10 s). */
  lockTimeoutMs?: number;
  /**
   * For a reader that hands anything unusual to a run that will deal with it (the launcher's
   * cached-token answer): a damaged file is left where it is and reading it throws
   * (`file_store_damaged`), rather than being moved aside and read as empty.
   */
  leaveDamagedFile?: boolean | undefined;
}

type Field = 'tokens' | 'client_secret';

/** A CredentialStore in one JSON file. */
export class FileStore implements CredentialStore {
  readonly kind = 'file' as const;
  readonly location: string;
  readonly #lockPath: string;
  readonly #lockTimeoutMs: number;
  readonly #warn: (line: string) => void;
  readonly #warned = new Set<string>();
  readonly #leaveDamagedFile: boolean;

  constructor(options: FileStoreOptions) {
    this.location = options.path;
    // Beside the file rather than in locks/, where the per-profile locks of `token` live.
    this.#lockPath = `${options.path}.lock`;
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 10_000;
    this.#warn = options.warn;
    this.#leaveDamagedFile = options.leaveDamagedFile === true;
  }

  async getTokens(profile: string): Promise<TokenRecord | undefined> {
    const raw = this.#field(await this.#read(), profile, 'tokens');
    if (raw === undefined) return undefined;
    const parsed = parseTokenRecord(raw);
    if ('record' in parsed) return parsed.record;
    this.#warnOnce(
      `ignoring the stored tokens of profile "${profile}" in ${this.location}: ${parsed.problem}`,
    );
    return undefined;
  }

  setTokens(profile: string, record: TokenRecord): Promise<void> {
    return this.#update(profile, 'tokens', { ...record });
  }

  deleteTokens(profile: string): Promise<void> {
    return this.#update(profile, 'tokens', undefined);
  }

  async getClientSecret(profile: string): Promise<string | undefined> {
    const raw = this.#field(await this.#read(), profile, 'client_secret');
    if (raw === undefined || (typeof raw === 'string' && raw !== '')) return raw;
    this.#warnOnce(
      `ignoring the stored client secret of profile "${profile}" in ${this.location}: not a string`,
    );
    return undefined;
  }

  setClientSecret(profile: string, secret: string): Promise<void> {
    return this.#update(profile, 'client_secret', secret);
  }

  deleteClientSecret(profile: string): Promise<void> {
    return this.#update(profile, 'client_secret', undefined);
  }

  async listProfiles(): Promise<string[]> {
    const doc = await this.#read();
    return Object.keys(doc.profiles)
      .filter((profile) => {
        const raw = this.#field(doc, profile, 'tokens');
        return raw !== undefined && 'record' in parseTokenRecord(raw);
      })
      .sort();
  }

  /** The raw value of one field; a malformed profile entry is reported and reads as absent. */
  #field(doc: CredentialsDocument, profile: string, field: Field): unknown {
    const entry = profileEntry(doc, profile);
    if (entry === 'malformed') {
      this.#warnOnce(`ignoring the entry of profile "${profile}" in ${this.location}: not an object`);
      return undefined;
    }
    return entry?.[field];
  }

  /** Reads without the lock (the file is replaced atomically); a corrupt file is set aside under it. */
  async #read(): Promise<CredentialsDocument> {
    const loaded = await loadCredentialsFile(this.location);
    if (loaded.ok) return loaded.doc;
    if (this.#leaveDamagedFile) {
      throw this.#damaged(`${this.location} is damaged (${loaded.problem}); left where it is`);
    }
    return withFileLock(this.#lockPath, () => this.#readLocked(false), { timeoutMs: this.#lockTimeoutMs });
  }

  /** Reads while holding the lock, moving a corrupt file aside (announced) and starting empty. */
  async #readLocked(forWrite: boolean): Promise<CredentialsDocument> {
    const loaded = await loadCredentialsFile(this.location);
    if (loaded.ok) return loaded.doc;
    let backup: string;
    try {
      backup = await moveAside(this.location);
    } catch (error) {
      const reason = `${this.location} is damaged (${loaded.problem}) and could not be moved aside`;
      if (forWrite) throw this.#damaged(`refusing to overwrite ${reason}`, error);
      this.#warnOnce(`${reason}; treating the credential store as empty`);
      return emptyDocument();
    }
    this.#warnOnce(
      `the credentials file ${this.location} is damaged (${loaded.problem}); moved it to ${backup} and started an empty one`,
    );
    return emptyDocument();
  }

  async #update(profile: string, field: Field, value: unknown): Promise<void> {
    if (value === undefined) {
      // Deleting from a store that does not exist: nothing to do, and no directory to create,
      // unless a killed writer left a temporary copy of the credentials behind.
      const loaded = await loadCredentialsFile(this.location);
      if (loaded.ok && !loaded.exists && listTempFiles(this.location).length === 0) return;
    }
    await withFileLock(
      this.#lockPath,
      async () => {
        // On every locked write and every delete (logout, remove): a writer killed between
        // writing its temporary file and renaming it left a full copy of the credentials there.
        removeStaleTempFiles(this.location);
        const doc = await this.#readLocked(true);
        const entry = profileEntry(doc, profile);
        const current = entry === 'malformed' ? undefined : entry?.[field];
        if (value === undefined && current === undefined && entry !== 'malformed') return; // nothing to delete
        const overwritesDamage =
          entry === 'malformed' || (current !== undefined && !isWellFormed(field, current));
        if (value !== undefined && overwritesDamage) {
          const backup = await copyAside(this.location);
          this.#warnOnce(
            `replacing the malformed ${field} of profile "${profile}"; the old file is kept as ${backup}`,
          );
        }
        const next: Record<string, unknown> =
          entry === 'malformed' || entry === undefined ? {} : { ...entry };
        if (value === undefined) delete next[field];
        else next[field] = value;
        if (Object.keys(next).length === 0) delete doc.profiles[profile];
        else doc.profiles[profile] = next;
        await writePrivateFileAtomic(this.location, `${JSON.stringify(doc, null, 2)}\n`);
      },
      { timeoutMs: this.#lockTimeoutMs },
    );
  }

  /** The error for a damaged file that stays where it is. */
  #damaged(message: string, cause?: unknown): TokencliError {
    return new TokencliError(message, {
      code: 'store',
      reason: 'file_store_damaged',
      details: { path: this.location },
      cause,
    });
  }

  #warnOnce(message: string): void {
    const line = `warning: ${message}`;
    if (this.#warned.has(line)) return;
    this.#warned.add(line);
    this.#warn(line);
  }
}

function isWellFormed(field: Field, value: unknown): boolean {
  return field === 'tokens' ? 'record' in parseTokenRecord(value) : typeof value === 'string' && value !== '';
}
