/**
 * Wiring shared by the commands that talk to the token service: the credential store, the client
 * secret, the HTTP settings and the service client. Heavy modules (undici, the keychain) are not
 * imported here; the store opens its backend lazily and the protocol layer is imported by the
 * commands that need the network.
 */
import type { HttpSettings, ServiceClient } from '../oauth/types.js';
import { openStore } from '../store/open-store.js';
import type { CredentialStore } from '../store/types.js';
import type { CommandContext } from './context.js';
import { findSecret, missingSecret, type SecretSource } from './secrets.js';
import type { Settings } from './settings.js';

/** Opens the store the settings name (or the default), warnings on stderr unless `--quiet`. */
export function openCredentialStore(settings: Settings, ctx: CommandContext): Promise<CredentialStore> {
  return openStore({
    kind: settings.storeKind,
    configDir: settings.configDir,
    warn: (line) => {
      if (!ctx.globals.quiet) ctx.io.stderr.write(`${line}\n`);
    },
  });
}

export function clientSecretSource(fromStdin: boolean): SecretSource {
  return {
    label: 'client secret',
    stdinFlag: '--client-secret-stdin',
    envVar: 'TOKENCLI_CLIENT_SECRET',
    fromStdin,
  };
}

/**
 * The client secret: `--client-secret-stdin`, TOKENCLI_CLIENT_SECRET, the store (saved by
 * `configure`), then a hidden prompt on a terminal; otherwise a usage error naming all three.
 */
export async function resolveClientSecret(
  ctx: CommandContext,
  store: CredentialStore,
  profile: string,
  fromStdin: boolean,
): Promise<string> {
  const source = clientSecretSource(fromStdin);
  if (!fromStdin && !ctx.io.env[source.envVar]) {
    const stored = await store.getClientSecret(profile);
    if (stored) return stored;
  }
  const secret = await findSecret(ctx, source);
  if (secret === undefined) throw missingSecret(source, 'save it with `tokencli configure`');
  return secret;
}

export function httpSettings(settings: Settings, ctx: CommandContext): HttpSettings {
  return {
    timeoutMs: settings.timeoutMs,
    caFile: settings.caFile,
    trace: ctx.globals.verbose ? (line) => ctx.io.stderr.write(`${line}\n`) : undefined,
  };
}

export function serviceClient(
  settings: Settings,
  ctx: CommandContext,
  service: { baseUrl: string; clientId: string },
  clientSecret?: string,
): ServiceClient {
  return {
    baseUrl: service.baseUrl,
    clientId: service.clientId,
    clientSecret,
    http: httpSettings(settings, ctx),
  };
}
