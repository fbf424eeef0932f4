/**
 * `tokencli status`: every known profile (or the one named with --profile / TOKENCLI_PROFILE), its
 * service, user, token expiries and store, and which profile is active. Offline, fast and
 * read-only (the state is gathered by src/session/profile-status.ts; this file words it). A
 * profile whose store cannot be reached is shown as unknown and the run exits 4 (docs/contract.md
 * §2.6); with `--check` it asks the service's tokeninfo about each selected profile's token and
 * the exit code says whether all of them are usable.
 */
import { type ErrorCode, TokencliError } from '../../../errors.js';
import { type ProfileStatus, type ProfilesStatus, profilesStatus } from '../../../session/profile-status.js';
import type { CredentialStore, TokenRecord } from '../../../store/types.js';
import type { Deps } from '../../deps.js';
import { describeAccessToken, describeExpiryFully } from '../../output/format.js';
import { type CommandFor, commandsFor, targetOf, tokencliCommand } from '../../output/paste-command.js';
import { profileSourceName } from '../../output/setting-names.js';
import { note } from '../../output/token-output.js';
import { profileStores } from '../profile-stores.js';
import { storesUnreachable } from '../store-unreachable.js';

type Check = 'valid' | 'refused' | 'unreachable' | 'not_logged_in' | 'store_unreachable';

/** A profile's state and, with `--check`, what the service said about its token. */
interface CheckedStatus extends ProfileStatus {
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

async function checkToken(deps: Deps, status: CheckedStatus, record: TokenRecord | undefined): Promise<void> {
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
    import('../../../oauth/tokeninfo.js'),
    import('../../../session/refused-token.js'),
    import('../../../session/profile-tokens.js'),
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
  const report = await profilesStatus(deps.session(), profileStores(deps));
  const profiles: CheckedStatus[] = report.profiles;

  if (options.check) {
    await Promise.all(profiles.map((p) => checkToken(deps, p, report.records.get(p.profile))));
  }

  const runStore = report.store;
  if (options.json) {
    const store = runStore ? { kind: runStore.kind, location: runStore.location } : null;
    const document = {
      active_profile: report.activeProfile,
      selected_profile: report.selectedProfile,
      store,
      profiles,
    };
    deps.io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    // The run's store heads the list only when it is every listed profile's: a profile whose
    // credentials are elsewhere (the keychain) must not read as if they were in it.
    const shared = runStore !== undefined && profiles.every((p) => p.store === runStore.kind);
    const storeLine = runStore && shared ? `store: ${runStore.kind} (${runStore.location})` : undefined;
    const runLocation = runStore && !shared ? runStore : undefined;
    const text = renderStatus(profiles, selection(report), runLocation, deps.now());
    deps.io.stdout.write(`${storeLine ? `${storeLine}\n` : ''}${text}\n`);
    if (profiles.length === 0) {
      // As `profile list` says it: there is nothing to show, which is not an error.
      note(
        deps,
        'No profiles yet: `tokencli configure`, or any command with --base-url and --client-id, creates one.',
      );
    }
  }

  if (options.check && profiles.length === 0) {
    // Nothing to ask about is not "every profile is usable": a script checking a login must fail.
    throw new TokencliError('no profile to check: none is configured', {
      code: 'not_logged_in',
      reason: 'status_check_failed',
      hint: `create one with ${tokencliCommand(targetOf(deps), 'configure')}, or log in with --base-url and --client-id`,
    });
  }
  if (options.check) {
    const failed = PRIORITY.find((check) => profiles.some((p) => p.check === check));
    if (failed !== undefined) {
      const which = profiles.filter((p) => p.check !== 'valid').map((p) => `${p.profile}: ${p.check}`);
      throw new TokencliError(`not every profile is usable (${which.join(', ')})`, {
        code: CODE_OF[failed],
        reason: 'status_check_failed',
        hint: checkHint(
          failed,
          profiles.filter((p) => p.check === failed).map((p) => p.profile),
          commandsFor(targetOf(deps)),
        ),
      });
    }
    return;
  }
  // What an unreachable store holds is unknown: that is not a success (docs/contract.md §2.6, exit 4).
  const unreachable = profiles.filter((p) => p.store_problem !== undefined);
  if (unreachable.length > 0) {
    throw storesUnreachable(unreachable.map((p) => ({ profile: p.profile, why: p.store_problem })));
  }
}

/** `(from TOKENCLI_PROFILE)`, `(not configured)`, both, or nothing for an existing default. */
function activeNote(source: string, exists: boolean): string {
  const notes = [source === 'default' ? '' : `from ${source}`, exists ? '' : 'not configured'];
  const text = notes.filter(Boolean).join(', ');
  return text ? ` (${text})` : '';
}

/** The header line and the mark of the run's profile. */
interface Selection {
  profile: string;
  header: string;
  mark: string;
}

/**
 * `--profile NAME` chooses a profile for this run only: when the saved active profile (the one
 * commands without --profile use) is another, NAME is "selected for this run", not "active".
 */
function selection(report: ProfilesStatus): Selection {
  const profile = report.selectedProfile;
  const note = activeNote(profileSourceName(report.selectedSource), report.selectedExists);
  if (report.selectedSource === 'option') {
    const saved = report.activeProfile;
    if (saved !== profile) {
      const missing = report.selectedExists ? '' : ', not configured';
      return {
        profile,
        header: `selected profile: ${profile} (--profile, for this run${missing}); active profile: ${saved}`,
        mark: ' (selected for this run)',
      };
    }
  }
  return { profile, header: `active profile: ${profile}${note}`, mark: ' (active)' };
}

/**
 * What to run for the profiles that failed the check: the commands name the profile (`status`
 * lists several, and a bare command would act on the active one), or NAME when several failed.
 */
function checkHint(failed: Exclude<Check, 'valid'>, names: string[], cmd: CommandFor): string {
  const [only] = names;
  const profile = names.length === 1 && only !== undefined ? only : 'NAME';
  switch (failed) {
    case 'refused':
      return `the service refused a stored token; ${cmd('token', profile)} renews it (or ${cmd('token --force', profile)}), else ${cmd('login', profile)}`;
    case 'unreachable':
      return 'check the base URL and that the token service is running; run again with --verbose for details';
    case 'store_unreachable':
      return `the credentials are in a store that cannot be reached here; see \`tokencli profile show ${profile}\``;
    default:
      return `run ${cmd('login', profile)} (or ${cmd('token', profile)} with a password) for the profiles not logged in`;
  }
}

const UNKNOWN = 'unknown (store unreachable)';

function renderStatus(
  profiles: CheckedStatus[],
  selected: Selection,
  runStore: CredentialStore | undefined,
  now: Date,
): string {
  const lines = [selected.header];
  for (const p of profiles) {
    const known = p.store_problem === undefined;
    lines.push('', `${p.profile}${p.profile === selected.profile ? selected.mark : ''}`);
    lines.push(`  base URL       ${p.base_url ?? '-'}`);
    lines.push(`  client id      ${p.client_id ?? '-'}`);
    lines.push(`  email          ${p.email ?? '-'}`);
    // Without a shared `store:` header, the run's store is placed where it is used.
    const where = runStore && p.store === runStore.kind ? ` (${runStore.location})` : '';
    lines.push(`  store          ${known ? `${p.store ?? '-'}${where}` : `unreachable: ${p.store_problem}`}`);
    const access = p.access_token_expires_at
      ? describeAccessToken(p.access_token_expires_at, p.access_token_refused_at, now)
      : 'none stored';
    lines.push(`  access token   ${known ? access : UNKNOWN}`);
    if (p.refresh_token_expires_at) {
      lines.push(`  refresh token  ${describeExpiryFully(new Date(p.refresh_token_expires_at), now)}`);
    }
    const secret = p.client_secret_stored ? 'stored' : 'not stored';
    lines.push(`  client secret  ${known ? secret : UNKNOWN}`);
    if (p.check)
      lines.push(
        `  check          ${p.check.replace(/_/g, ' ')}${p.check_detail ? ` (${p.check_detail})` : ''}`,
      );
  }
  return lines.join('\n');
}
