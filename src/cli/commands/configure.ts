/**
 * `tokencli configure`: saves a profile's base URL, client id and redirect URI to the config file
 * — and the email, timeout and CA file when their flags are given (docs/contract.md §2.1), each
 * checked first — and its client secret to the credential store (never to the config file; the
 * password is never stored). Missing values are asked for on a terminal; elsewhere the flags must
 * carry them.
 */
import { createInterface } from 'node:readline/promises';
import { UsageError } from '../../errors.js';
import { parseRedirectUri } from '../../login/redirect-uri.js';
import { configPath, type ProfileConfig } from '../../session/config-file.js';
import { checkCaFile, checkEmail } from '../../session/profile-values.js';
import { checkBaseUrl } from '../../session/settings.js';
import type { Deps } from '../deps.js';
import { clientSecretSource, findSecret } from '../secrets.js';
import { note } from '../token-output.js';

export interface ConfigureOptions {
  redirectUri?: string;
  email?: string;
  clientSecretStdin?: boolean;
  /** false with `--no-secret`. */
  secret: boolean;
}

async function ask(deps: Deps, question: string, current: string | undefined): Promise<string | undefined> {
  const rl = createInterface({ input: deps.io.stdin, output: deps.io.stderr });
  try {
    const answer = (await rl.question(current ? `${question} [${current}]: ` : `${question}: `)).trim();
    return answer || current;
  } finally {
    rl.close();
  }
}

async function required(
  deps: Deps,
  value: string | undefined,
  question: string,
  flag: string,
): Promise<string> {
  const answer = value ?? (deps.io.stdinIsTTY ? await ask(deps, question, undefined) : undefined);
  if (!answer) throw new UsageError(`no ${question.toLowerCase()} given`, `pass ${flag}`);
  return answer;
}

export async function run(options: ConfigureOptions, deps: Deps): Promise<void> {
  if (options.clientSecretStdin && options.secret === false) {
    throw new UsageError('--client-secret-stdin and --no-secret contradict each other');
  }
  // The check `login` makes, before anything is asked: no redirect URI is saved that login refuses.
  const redirectUri =
    options.redirectUri !== undefined ? parseRedirectUri(options.redirectUri).uri.href : undefined;
  const settings = await deps.settings({ redirectUri: options.redirectUri });
  const existing: ProfileConfig = settings.config.profiles[settings.profile] ?? {};

  const baseUrl = checkBaseUrl(
    await required(deps, settings.baseUrl, 'Base URL', '--base-url or set TOKENCLI_BASE_URL'),
    { kind: 'named', label: 'base URL' },
  );
  const clientId = await required(
    deps,
    settings.clientId,
    'Client id',
    '--client-id or set TOKENCLI_CLIENT_ID',
  );
  const profile: ProfileConfig = { ...existing, base_url: baseUrl, client_id: clientId };
  if (redirectUri !== undefined) profile.redirect_uri = redirectUri;
  if (deps.globals.store) profile.store = deps.globals.store;
  // Only what this command's flags give is saved: a variable set for one shell (TOKENCLI_TIMEOUT,
  // TOKENCLI_EMAIL) is not meant to outlive it. The settings already refused a malformed timeout.
  if (options.email !== undefined) profile.email = checkEmail(options.email);
  if (deps.globals.timeout !== undefined) profile.timeout = Number(deps.globals.timeout);
  if (deps.globals.caFile !== undefined) profile.ca_file = checkCaFile(deps.globals.caFile);

  // Read the secret before writing anything, so a failed read leaves the profile as it was.
  const keepsSecrets = settings.storeKind !== 'none';
  const store = keepsSecrets ? await deps.store() : undefined;
  const storedSecret = store ? await store.getClientSecret(settings.profile) : undefined;
  let secret: string | undefined;
  let keptStored = false;
  if (options.secret !== false) {
    const source = clientSecretSource(options.clientSecretStdin === true);
    if (
      storedSecret !== undefined &&
      !source.fromStdin &&
      !deps.io.env[source.envVar] &&
      deps.io.stdinIsTTY
    ) {
      // An existing profile: say a secret is there, and keep it on an empty answer.
      const typed = await deps.promptHidden('Client secret (one is stored; press Enter to keep it): ');
      if (typed === '') keptStored = true;
      else secret = typed;
    } else {
      secret = await findSecret(deps, source);
    }
  }
  // The profile records the store that holds its secret and tokens, so later runs look there.
  if (store && !deps.globals.store && (secret !== undefined || storedSecret !== undefined)) {
    profile.store = store.kind;
  }

  // Onto the file as it is now: opening the store may have recorded the fallback notice since.
  await deps.updateConfig((config) => {
    config.profiles[settings.profile] = profile;
    return true;
  });
  note(deps, `Saved profile "${settings.profile}" to ${configPath(settings.configDir)}.`);

  if (secret !== undefined && !store) {
    note(deps, 'The client secret was not saved: the store is "none".');
  } else if (secret !== undefined && store) {
    await store.setClientSecret(settings.profile, secret);
    note(deps, `Saved the client secret in the ${store.kind} store (${store.location}).`);
  } else if (keptStored || (storedSecret !== undefined && options.secret !== false)) {
    note(deps, `Kept the client secret already stored in the ${store?.kind} store.`);
  } else if (options.secret !== false) {
    note(
      deps,
      'No client secret saved: pipe it to --client-secret-stdin, or set TOKENCLI_CLIENT_SECRET when running.',
    );
  }
}
