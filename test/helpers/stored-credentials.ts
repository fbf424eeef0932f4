/**
 * A config dir as the tests see it: `credentials.json` (the file store) written with ready records
 * (the state a test starts from) and read back to check what the CLI or library kept, and
 * `config.json` written with the profiles a test starts from. Both 0600, as tokencli writes them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StoredCredentials {
  version: number;
  profiles: Record<string, { client_secret?: string; tokens?: Record<string, unknown> }>;
}

export function credentialsFile(configDir: string): string {
  return join(configDir, 'credentials.json');
}

/** Writes a store holding these profiles' tokens and nothing else. */
export function writeStoredProfiles(configDir: string, tokensByProfile: Record<string, unknown>): void {
  const doc = { version: 1, profiles: {} as Record<string, unknown> };
  for (const [name, tokens] of Object.entries(tokensByProfile)) doc.profiles[name] = { tokens };
  writeFileSync(credentialsFile(configDir), JSON.stringify(doc), { mode: 0o600 });
}

/** Writes a store holding only `tokens` for `profile`. */
export function writeStoredTokens(configDir: string, tokens: unknown, profile = 'default'): void {
  writeStoredProfiles(configDir, { [profile]: tokens });
}

export function readStoredCredentials(configDir: string): StoredCredentials {
  return JSON.parse(readFileSync(credentialsFile(configDir), 'utf8')) as StoredCredentials;
}

/** Writes `config.json` with these profiles (name → settings as the file spells them). */
export function writeProfiles(configDir: string, profiles: Record<string, Record<string, unknown>>): void {
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
}

/** A time `seconds` from now, as a record stores it. */
export function secondsFromNow(seconds: number): string {
  return new Date(Date.now() + seconds * 1000).toISOString();
}

/**
 * A token record for the demo client of `baseUrl`, as a browser login leaves it: its access token
 * good for 50 more minutes, obtained ten minutes ago; `extra` changes or adds fields.
 */
export function plantedRecord(baseUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    base_url: baseUrl,
    client_id: 'demo-client',
    access_token: 'planted-access-token-0123456789abcdef',
    token_type: 'BearerToken',
    expires_at: secondsFromNow(3000),
    grant: 'authorization_code',
    obtained_at: secondsFromNow(-600),
    ...extra,
  };
}
