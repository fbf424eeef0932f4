/** `tokencli status`: every known profile, its service, user, token expiries, and the store in use. */
import type { Deps } from '../deps.js';
import { describeExpiryFully } from '../format.js';

interface ProfileStatus {
  profile: string;
  base_url: string | null;
  client_id: string | null;
  email: string | null;
  logged_in: boolean;
  grant: string | null;
  access_token_expires_at: string | null;
  refresh_token_expires_at: string | null;
  client_secret_stored: boolean;
}

export async function run(options: { json?: boolean }, deps: Deps): Promise<void> {
  const settings = await deps.settings();
  const store = await deps.store();
  const names = new Set([...Object.keys(settings.config.profiles), ...(await store.listProfiles())]);
  if (names.size === 0) names.add(settings.profile);

  const profiles: ProfileStatus[] = [];
  for (const name of [...names].sort()) {
    const config = settings.config.profiles[name] ?? {};
    const record = await store.getTokens(name);
    profiles.push({
      profile: name,
      base_url: record?.base_url ?? config.base_url ?? null,
      client_id: record?.client_id ?? config.client_id ?? null,
      email: record?.email ?? config.email ?? null,
      logged_in: record !== undefined,
      grant: record?.grant ?? null,
      access_token_expires_at: record?.expires_at ?? null,
      refresh_token_expires_at: record?.refresh_token_expires_at ?? null,
      client_secret_stored: (await store.getClientSecret(name)) !== undefined,
    });
  }

  if (options.json) {
    const document = { store: { kind: store.kind, location: store.location }, profiles };
    deps.io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  const now = deps.now();
  const lines = [`store: ${store.kind} (${store.location})`];
  for (const p of profiles) {
    lines.push('', `${p.profile}${p.profile === settings.profile ? ' (current)' : ''}`);
    lines.push(`  base URL       ${p.base_url ?? '-'}`);
    lines.push(`  client id      ${p.client_id ?? '-'}`);
    lines.push(`  email          ${p.email ?? '-'}`);
    lines.push(
      `  access token   ${p.access_token_expires_at ? describeExpiryFully(new Date(p.access_token_expires_at), now) : 'none stored'}`,
    );
    if (p.refresh_token_expires_at) {
      lines.push(`  refresh token  ${describeExpiryFully(new Date(p.refresh_token_expires_at), now)}`);
    }
    lines.push(`  client secret  ${p.client_secret_stored ? 'stored' : 'not stored'}`);
  }
  deps.io.stdout.write(`${lines.join('\n')}\n`);
}
