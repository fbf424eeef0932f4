/**
 * `tokencli status`: every known profile (or the one named with --profile / TOKENCLI_PROFILE), its
 * service, user, token expiries and store, and which profile is active. Offline and fast; with
 * `--check` it asks the service's tokeninfo about each selected profile's token and the
 * exit code says whether all of them are usable.
 */
import { type ErrorCode, TokencliError } from '../../errors.js';
import type { TokenRecord } from '../../store/types.js';
import { type Deps, noSuchProfile } from '../deps.js';
import { describeAccessToken, describeExpiryFully } from '../format.js';
import { profileStores } from '../profile-stores.js';
import { profileSourceName } from '../setting-names.js';

type Check = 'valid' | 'refused' | 'unreachable' | 'not_logged_in' | 'store_unreachable';

interface ProfileStatus {
  profile: string;
  active: boolean;
  base_url: string | null;
  client_id: string | null;
  email: string | null;
  logged_in: boolean;
  grant: string | null;
  access_token_expires_at: string | null;
  /** When the service refused the access token and it was dropped (src/session/refused-token.ts). */
  access_token_refused_at: string | null;
  refresh_token_expires_at: string | null;
  client_secret_stored: boolean;
  store: string | null;
  store_problem?: string;
  check?: Check;
  check_detail?: string;
}

export interface StatusOptions {
  json?: boolean;
  check?: boolean;
}

/** Which failure decides the exit code when several profiles fail differently. */
const CODE_OF: Record<Exclude<Check, 'valid'>, ErrorCode> = {
  refused: 'service_refused',
  unreachable: 'service_unavailable',
  not_logged_in: 'not_logged_in',
  store_unreachable: 'not_logged_in',
};
const PRIORITY: Array<Exclude<Check, 'valid'>> = [
  'refused',
  'unreachable',
  'not_logged_in',
  'store_unreachable',
];

async function checkToken(deps: Deps, status: ProfileStatus, record: TokenRecord | undefined): Promise<void> {
  if (status.store_problem) {
    status.check = 'store_unreachable';
    status.check_detail = status.store_problem;
    return;
  }
  if (!record) {
    status.check = 'not_logged_in';
    return;
  }
  // Refused before and dropped: sent again it would only be refused again.
  if (record.access_token_refused_at !== undefined) {
    status.check = 'refused';
    status.check_detail = `refused earlier, at ${record.access_token_refused_at}; not sent again`;
    return;
  }
  const [{ fetchTokenInfo }, { refusesAccessToken }, { ProfileTokens }] = await Promise.all([
    import('../../oauth/tokeninfo.js'),
    import('../../session/refused-token.js'),
    import('../../session/profile-tokens.js'),
  ]);
  const client = {
    baseUrl: record.base_url,
    clientId: record.client_id,
    http: await deps.http(),
    now: deps.now,
  };
  try {
    const info = await fetchTokenInfo(client, record.access_token, { signal: deps.signal });
    const expired = typeof info.expires_in === 'number' && info.expires_in <= 0;
    if (info.status === 'approved' && !expired) {
      status.check = 'valid';
    } else {
      status.check = 'refused';
      status.check_detail = expired ? 'expired' : `status ${String(info.status ?? 'missing')}`;
    }
  } catch (error) {
    if (!(error instanceof TokencliError)) throw error;
    if (error.code === 'service_refused') {
      status.check = 'refused';
      status.check_detail = error.message;
      // Dropped from the cache only for the run's own profile: the lock and store are its.
      const settings = await deps.settings();
      if (refusesAccessToken(error) && status.profile === settings.profile) {
        const service = { baseUrl: record.base_url, clientId: record.client_id };
        await new ProfileTokens(deps.session(), settings, service, await deps.store()).drop(record);
      }
    } else if (error.code === 'service_unavailable' || error.code === 'network') {
      status.check = 'unreachable';
      status.check_detail = error.message;
    } else {
      throw error;
    }
  }
}

export async function run(options: StatusOptions, deps: Deps): Promise<void> {
  const settings = await deps.settings();
  const storeFor = profileStores(deps);
  const chosen = settings.profileSource === 'option' || settings.profileSource === 'environment';
  // The run's own store; one the profile recorded but cannot be reached is reported per profile.
  const runStore = await deps.store().catch(() => undefined);
  const names = new Set<string>();
  if (chosen) {
    names.add(settings.profile);
  } else {
    for (const name of Object.keys(settings.config.profiles)) names.add(name);
    for (const name of (await runStore?.listProfiles()) ?? []) names.add(name);
    if (names.size === 0) names.add(settings.profile);
  }

  const profiles: ProfileStatus[] = [];
  const records = new Map<string, TokenRecord | undefined>();
  for (const name of [...names].sort()) {
    const config = settings.config.profiles[name] ?? {};
    const status: ProfileStatus = {
      profile: name,
      active: name === settings.profile,
      base_url: config.base_url ?? null,
      client_id: config.client_id ?? null,
      email: config.email ?? null,
      logged_in: false,
      grant: null,
      access_token_expires_at: null,
      access_token_refused_at: null,
      refresh_token_expires_at: null,
      client_secret_stored: false,
      store: config.store ?? null,
    };
    try {
      const store = await storeFor(name);
      const record = await store.getTokens(name);
      records.set(name, record);
      status.store = store.kind;
      status.base_url = record?.base_url ?? status.base_url;
      status.client_id = record?.client_id ?? status.client_id;
      status.email = record?.email ?? status.email;
      status.logged_in = record !== undefined;
      status.grant = record?.grant ?? null;
      status.access_token_expires_at = record?.expires_at ?? null;
      status.access_token_refused_at = record?.access_token_refused_at ?? null;
      status.refresh_token_expires_at = record?.refresh_token_expires_at ?? null;
      status.client_secret_stored = (await store.getClientSecret(name)) !== undefined;
    } catch (error) {
      if (!(error instanceof TokencliError) || error.code !== 'store') throw error;
      status.store_problem = error.message;
    }
    profiles.push(status);
  }
  if (chosen && !Object.hasOwn(settings.config.profiles, settings.profile) && !profiles[0]?.logged_in) {
    throw noSuchProfile(settings);
  }

  if (options.check) {
    await Promise.all(profiles.map((p) => checkToken(deps, p, records.get(p.profile))));
  }

  if (options.json) {
    const store = runStore ? { kind: runStore.kind, location: runStore.location } : null;
    const document = { active_profile: settings.profile, store, profiles };
    deps.io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    const storeLine = runStore ? `store: ${runStore.kind} (${runStore.location})` : undefined;
    const text = renderStatus(
      profiles,
      settings.profile,
      profileSourceName(settings.profileSource),
      deps.now(),
    );
    deps.io.stdout.write(`${storeLine ? `${storeLine}\n` : ''}${text}\n`);
  }

  if (options.check) {
    const failed = PRIORITY.find((check) => profiles.some((p) => p.check === check));
    if (failed !== undefined) {
      const which = profiles.filter((p) => p.check !== 'valid').map((p) => `${p.profile}: ${p.check}`);
      throw new TokencliError(`not every profile is usable (${which.join(', ')})`, {
        code: CODE_OF[failed],
        reason: 'status_check_failed',
        hint: checkHint(failed),
      });
    }
  }
}

function checkHint(failed: Exclude<Check, 'valid'>): string {
  switch (failed) {
    case 'refused':
      return 'the service refused a stored token; `tokencli token` renews it (or `tokencli token --force`), else `tokencli login`';
    case 'unreachable':
      return 'check the base URL and that the token service is running; run again with --verbose for details';
    case 'store_unreachable':
      return 'the credentials are in a store that cannot be reached here; see `tokencli profile show NAME`';
    default:
      return 'run `tokencli login --profile NAME` (or `tokencli token` with a password) for the profiles not logged in';
  }
}

function renderStatus(profiles: ProfileStatus[], active: string, source: string, now: Date): string {
  const lines = [`active profile: ${active}${source === 'default' ? '' : ` (from ${source})`}`];
  for (const p of profiles) {
    lines.push('', `${p.profile}${p.profile === active ? ' (active)' : ''}`);
    lines.push(`  base URL       ${p.base_url ?? '-'}`);
    lines.push(`  client id      ${p.client_id ?? '-'}`);
    lines.push(`  email          ${p.email ?? '-'}`);
    lines.push(`  store          ${p.store_problem ? `unreachable: ${p.store_problem}` : (p.store ?? '-')}`);
    lines.push(
      `  access token   ${p.access_token_expires_at ? describeAccessToken(p.access_token_expires_at, p.access_token_refused_at, now) : 'none stored'}`,
    );
    if (p.refresh_token_expires_at) {
      lines.push(`  refresh token  ${describeExpiryFully(new Date(p.refresh_token_expires_at), now)}`);
    }
    lines.push(`  client secret  ${p.client_secret_stored ? 'stored' : 'not stored'}`);
    if (p.check)
      lines.push(
        `  check          ${p.check.replace(/_/g, ' ')}${p.check_detail ? ` (${p.check_detail})` : ''}`,
      );
  }
  return lines.join('\n');
}
