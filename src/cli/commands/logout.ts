/** `tokencli logout`: removes the profile's stored tokens; `--purge` also its client secret. */
import type { CommandContext } from '../context.js';
import { openCredentialStore } from '../service.js';
import { resolveSettings } from '../settings.js';
import { note } from '../token-output.js';

export async function run(options: { purge?: boolean }, ctx: CommandContext): Promise<void> {
  const settings = await resolveSettings(ctx);
  const store = await openCredentialStore(settings, ctx);
  const had = (await store.getTokens(settings.profile)) !== undefined;
  await store.deleteTokens(settings.profile);
  if (options.purge) await store.deleteClientSecret(settings.profile);
  const what = options.purge ? 'tokens and client secret' : 'tokens';
  note(
    ctx,
    had || options.purge
      ? `Removed the stored ${what} of profile "${settings.profile}".`
      : `Nothing stored for profile "${settings.profile}".`,
  );
}
