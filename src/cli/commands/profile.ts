/**
 * `tokencli profile list | use NAME | show [NAME] | remove NAME` (gh `auth switch` and
 * gcloud `configurations` are the models). Profiles live in the config file (never a secret
 * there); their tokens and client secret live in the store each profile recorded.
 */
import { createInterface } from 'node:readline/promises';
import { TokencliError, UsageError } from '../../errors.js';
import type { ConfigFile } from '../../session/config-file.js';
import type { Settings } from '../../session/settings.js';
import { checkProfileName, configPath, type Deps, noSuchProfile } from '../deps.js';
import { describeAccessToken } from '../format.js';
import { noteLine } from '../prefixes.js';
import { profileNames } from '../profile-names.js';
import { everyStore, profileStores } from '../profile-stores.js';
import { storesUnreachable } from '../store-unreachable.js';
import { note } from '../token-output.js';

function requireKnown(settings: Settings, name: string): void {
  checkProfileName(name);
  if (!Object.hasOwn(settings.config.profiles, name)) {
    throw noSuchProfile({ ...settings, profile: name, profileSource: 'default' });
  }
}

/** The profile `tokencli` uses when no --profile is given, and why. */
function activeOf(settings: Settings, env: NodeJS.ProcessEnv): { name: string; from: string } {
  if (env.TOKENCLI_PROFILE) return { name: env.TOKENCLI_PROFILE, from: 'TOKENCLI_PROFILE' };
  if (settings.config.active_profile) return { name: settings.config.active_profile, from: 'config file' };
  return { name: 'default', from: 'default' };
}

export async function list(options: { json?: boolean }, deps: Deps): Promise<void> {
  const settings = await deps.settings();
  const active = activeOf(settings, deps.io.env).name;
  const rows = profileNames(settings.config).map((name) => {
    const p = settings.config.profiles[name] ?? {};
    return {
      profile: name,
      active: name === active,
      base_url: p.base_url ?? null,
      client_id: p.client_id ?? null,
      store: p.store ?? null,
    };
  });
  if (options.json) {
    deps.io.stdout.write(`${JSON.stringify({ active_profile: active, profiles: rows }, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    note(
      deps,
      'No profiles yet: `tokencli configure`, or any command with --base-url and --client-id, creates one.',
    );
    return;
  }
  // Every column padded to its widest cell, so the columns line up whatever the URLs' lengths.
  const cells = rows.map((r) => [r.profile, r.base_url ?? '-', r.client_id ?? '-', r.store ?? '-']);
  const widths = [0, 1, 2].map((column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const lines = cells.map((row, i) => {
    const padded = row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
    return `${rows[i]?.active ? '*' : ' '} ${padded}`;
  });
  deps.io.stdout.write(`${lines.join('\n')}\n`);
}

export async function use(_options: unknown, deps: Deps, name: string): Promise<void> {
  const settings = await deps.settings();
  requireKnown(settings, name);
  await deps.updateConfig((config) => {
    config.active_profile = name;
    return true;
  });
  note(deps, `Active profile: ${name} (saved in ${configPath(settings.configDir)}).`);
  if (deps.io.env.TOKENCLI_PROFILE && deps.io.env.TOKENCLI_PROFILE !== name) {
    noteLine(
      deps,
      `warning: TOKENCLI_PROFILE=${deps.io.env.TOKENCLI_PROFILE} is set and takes precedence in this shell`,
    );
  }
}

export async function show(options: { json?: boolean }, deps: Deps, given?: string): Promise<void> {
  const settings = await deps.settings();
  const name = given ?? settings.profile;
  if (given !== undefined || settings.profileSource !== 'default') requireKnown(settings, name);
  const config = settings.config.profiles[name] ?? {};
  let storeKind: string | null = null;
  let tokens: Record<string, unknown> = { logged_in: false };
  let clientSecretStored: boolean | null = false;
  let storeProblem: string | null = null;
  try {
    const store = await profileStores(deps)(name);
    storeKind = store.kind;
    const record = await store.getTokens(name);
    clientSecretStored = (await store.getClientSecret(name)) !== undefined;
    if (record) {
      tokens = {
        logged_in: true,
        email: record.email ?? null,
        grant: record.grant,
        access_token_expires_at: record.expires_at,
        access_token_refused_at: record.access_token_refused_at ?? null,
        refresh_token_expires_at: record.refresh_token_expires_at ?? null,
        has_refresh_token: record.refresh_token !== undefined,
      };
    }
  } catch (error) {
    storeProblem = error instanceof Error ? error.message : String(error);
    // What a store that cannot be reached holds is unknown, not "none".
    tokens = { logged_in: null };
    clientSecretStored = null;
  }
  // The implicit `default` on a fresh config directory is no profile: say so, make none up.
  const nothing = !clientSecretStored && tokens.logged_in === false;
  if (!Object.hasOwn(settings.config.profiles, name) && nothing) {
    throw noSuchProfile({ ...settings, profile: name, profileSource: 'default' });
  }
  const document = {
    profile: name,
    active: activeOf(settings, deps.io.env).name === name,
    settings: config,
    store: storeKind,
    store_problem: storeProblem,
    client_secret_stored: clientSecretStored,
    ...tokens,
  };
  if (options.json) {
    deps.io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    // As `status`: what a store that cannot be reached holds is unknown, which is not a success.
    if (storeProblem) throw storesUnreachable([{ profile: name, why: storeProblem }]);
    return;
  }
  const now = deps.now();
  const lines = [`${name}${document.active ? ' (active)' : ''}`];
  for (const [key, value] of Object.entries(config)) lines.push(`  ${key.padEnd(14)} ${String(value)}`);
  lines.push(
    `  ${'credentials'.padEnd(14)} ${storeProblem ? `unreachable: ${storeProblem}` : `${storeKind} store`}`,
  );
  if (!storeProblem) {
    lines.push(`  ${'client secret'.padEnd(14)} ${clientSecretStored ? 'stored' : 'not stored'}`);
    lines.push(
      `  ${'access token'.padEnd(14)} ${tokens.logged_in ? describeAccessToken(String(tokens.access_token_expires_at), tokens.access_token_refused_at as string | null, now) : 'none stored'}`,
    );
  }
  deps.io.stdout.write(`${lines.join('\n')}\n`);
  if (storeProblem) throw storesUnreachable([{ profile: name, why: storeProblem }]);
}

/**
 * Asks a yes/no question on the terminal; anything but y or yes is no. Ctrl-D (end of input) is
 * no too, as in `rm -i`; Ctrl-C interrupts (exit 130), as at the password prompt.
 */
async function confirm(deps: Deps, question: string): Promise<boolean> {
  const rl = createInterface({ input: deps.io.stdin, output: deps.io.stderr });
  const interrupt = new AbortController();
  rl.on('SIGINT', () => interrupt.abort());
  try {
    const answer = await rl.question(`${question} [y/N] `, { signal: interrupt.signal });
    return /^(y|yes)$/i.test(answer.replace(/^[ \t]+|[ \t]+$/g, ''));
  } catch (error) {
    // Ctrl-D ends the question (an answer: no); Ctrl-C aborts it through the signal above.
    if (interrupt.signal.aborted) throw new TokencliError('interrupted', { code: 'interrupted' });
    if ((error as { code?: string }).code === 'ABORT_ERR') {
      deps.io.stderr.write('\n');
      return false;
    }
    throw error;
  } finally {
    rl.close();
  }
}

function forget(config: ConfigFile, name: string): boolean {
  delete config.profiles[name];
  if (config.active_profile === name) delete config.active_profile;
  if (config.store_fallback_announced) {
    config.store_fallback_announced = config.store_fallback_announced.filter((n) => n !== name);
    if (config.store_fallback_announced.length === 0) delete config.store_fallback_announced;
  }
  return true;
}

export async function remove(options: { yes?: boolean }, deps: Deps, name: string): Promise<void> {
  checkProfileName(name);
  const settings = await deps.settings();
  const { stores, unreachable } = await everyStore(deps);
  const holding = [];
  for (const store of stores) {
    const has =
      (await store.getTokens(name)) !== undefined || (await store.getClientSecret(name)) !== undefined;
    if (has) holding.push(store);
  }
  const inConfig = Object.hasOwn(settings.config.profiles, name);
  if (!inConfig && holding.length === 0) {
    throw noSuchProfile({ ...settings, profile: name, profileSource: 'default' });
  }
  if (!options.yes) {
    if (!deps.io.stdinIsTTY) {
      throw new UsageError(`profile remove ${name}: not confirmed`, 'pass --yes to remove it without asking');
    }
    const ok = await confirm(deps, `Remove profile "${name}": its settings, tokens and client secret?`);
    // Answering no is a choice, not a failure (like `rm -i`): exit 0, and say nothing changed.
    if (!ok) {
      note(deps, `Left profile "${name}" as it was; nothing was removed.`);
      return;
    }
  }
  for (const store of holding) {
    await store.deleteTokens(name);
    await store.deleteClientSecret(name);
  }
  let wasActive = false;
  await deps.updateConfig((config) => {
    wasActive = config.active_profile === name;
    return forget(config, name);
  });
  const where = holding.map((s) => `${s.kind} store`).join(' and ');
  note(deps, `Removed profile "${name}"${where ? ` (settings, and credentials from the ${where})` : ''}.`);
  if (wasActive) {
    // Commands without --profile now use `default`: say so rather than switch silently.
    const known = Object.hasOwn(settings.config.profiles, 'default') && name !== 'default';
    note(
      deps,
      `It was the active profile: the active profile is now "default"${known ? '' : ', which is not configured'}; choose another with \`tokencli profile use NAME\`.`,
    );
  }
  if (unreachable && settings.config.profiles[name]?.store === 'keychain') {
    noteLine(
      deps,
      `warning: the OS keychain cannot be reached here (${unreachable}); entries of "${name}" there were not removed`,
    );
  }
}
