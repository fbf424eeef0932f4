/**
 * `<config dir>/config.json`: per-profile settings, never secrets (docs/contract.md §2.1).
 * Read on every command; written by `configure`, `profile use|remove`, and by every command that
 * obtains a token (the profile records the service and store that hold its credentials).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../errors.js';
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
  /** The profile `tokencli profile use NAME` chose; after `--profile` and TOKENCLI_PROFILE. */
  active_profile?: string;
  /**
   * Profiles already told that the OS keychain could not be reached and their credentials are
   * kept in the file instead: the warning is said once per profile, not on every run.
   */
  store_fallback_announced?: string[];
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

function invalid(path: string, detail: string): InputError {
  return new InputError(`config file ${path} is invalid: ${detail}`, 'config_invalid', { path });
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
  const config: ConfigFile = { profiles: profiles as Record<string, ProfileConfig> };
  const active = (data as { active_profile?: unknown }).active_profile;
  if (active !== undefined) {
    if (typeof active !== 'string') throw invalid(path, '"active_profile" must be a string');
    config.active_profile = active;
  }
  const announced = (data as { store_fallback_announced?: unknown }).store_fallback_announced;
  if (announced !== undefined) {
    if (!Array.isArray(announced) || !announced.every((name) => typeof name === 'string')) {
      throw invalid(path, '"store_fallback_announced" must be a list of profile names');
    }
    config.store_fallback_announced = announced as string[];
  }
  return config;
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

/**
 * Re-reads the file and applies `change` to what is there now, so two commands recording different
 * things (a login here, `profile use` there) do not undo each other's writes.
 */
export async function updateConfig(
  configDir: string,
  change: (config: ConfigFile) => boolean,
): Promise<void> {
  const config = await readConfig(configDir);
  if (change(config)) await writeConfig(configDir, config);
}
