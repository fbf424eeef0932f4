/**
 * `<config dir>/config.json`: per-profile settings, never secrets (SPEC.md §2.1).
 * Read on every command, written only by `configure`.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { readPrivateFile, writePrivateFileAtomic } from '../fs/private-files.js';

export interface ProfileConfig {
  base_url?: string;
  client_id?: string;
  redirect_uri?: string;
  email?: string;
  store?: string;
  timeout?: number;
  ca_file?: string;
}

export interface ConfigFile {
  profiles: Record<string, ProfileConfig>;
}

const PROFILE_KEYS = new Set([
  'base_url',
  'client_id',
  'redirect_uri',
  'email',
  'store',
  'timeout',
  'ca_file',
]);

/** The platform's config directory, unless TOKENCLI_CONFIG_DIR names one. */
export function configDirFrom(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.TOKENCLI_CONFIG_DIR) return env.TOKENCLI_CONFIG_DIR;
  if (platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'tokencli');
  if (platform === 'darwin') return join(env.HOME ?? homedir(), 'Library', 'Application Support', 'tokencli');
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'tokencli');
  return join(env.HOME ?? homedir(), '.config', 'tokencli');
}

export function configPath(configDir: string): string {
  return join(configDir, 'config.json');
}

function invalid(path: string, detail: string): UsageError {
  return new UsageError(
    `config file ${path} is invalid: ${detail}`,
    'fix the file, or remove it and run `tokencli configure`',
  );
}

/** Parses and checks the file's shape; unknown profile keys are refused so typos do not go unnoticed. */
export function parseConfig(text: string, path: string): ConfigFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalid(path, `not JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw invalid(path, 'expected an object');
  const profiles = (data as { profiles?: unknown }).profiles ?? {};
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) {
    throw invalid(path, '"profiles" must be an object');
  }
  for (const [name, profile] of Object.entries(profiles)) {
    if (typeof profile !== 'object' || profile === null || Array.isArray(profile)) {
      throw invalid(path, `profiles.${name} must be an object`);
    }
    for (const [key, value] of Object.entries(profile)) {
      if (!PROFILE_KEYS.has(key)) throw invalid(path, `profiles.${name}.${key} is not a known setting`);
      const expected = key === 'timeout' ? 'number' : 'string';
      if (typeof value !== expected) throw invalid(path, `profiles.${name}.${key} must be a ${expected}`);
    }
  }
  return { profiles: profiles as Record<string, ProfileConfig> };
}

export async function readConfig(configDir: string): Promise<ConfigFile> {
  const path = configPath(configDir);
  const text = await readPrivateFile(path);
  if (text === undefined) return { profiles: {} };
  return parseConfig(text, path);
}

export async function writeConfig(configDir: string, config: ConfigFile): Promise<void> {
  await writePrivateFileAtomic(configPath(configDir), `${JSON.stringify(config, null, 2)}\n`);
}
