/**
 * The file store as the tests see it: `credentials.json` in a config dir, written with a ready
 * record (the state a test starts from) and read back to check what the CLI or library kept.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface StoredCredentials {
  version: number;
  profiles: Record<string, { client_secret?: string; tokens?: Record<string, unknown> }>;
}

export function credentialsFile(configDir: string): string {
  return join(configDir, 'credentials.json');
}

/** Writes a store holding only `tokens` for `profile`, 0600 like the file store writes it. */
export async function writeStoredTokens(
  configDir: string,
  tokens: Record<string, unknown>,
  profile = 'default',
): Promise<void> {
  const doc: StoredCredentials = { version: 1, profiles: { [profile]: { tokens } } };
  await writeFile(credentialsFile(configDir), JSON.stringify(doc), { mode: 0o600 });
}

export async function readStoredCredentials(configDir: string): Promise<StoredCredentials> {
  return JSON.parse(await readFile(credentialsFile(configDir), 'utf8')) as StoredCredentials;
}
