/** `tokencli logout`: removes the profile's stored tokens; `--purge` also its client secret. */
import { noSuchProfile } from '../../../session/settings.js';
import type { Deps } from '../../deps.js';
import { note } from '../../output/token-output.js';

export async function run(options: { purge?: boolean }, deps: Deps): Promise<void> {
  const settings = await deps.settings();
  const store = await deps.store();
  const had = (await store.getTokens(settings.profile)) !== undefined;
  // A profile named on purpose that exists nowhere is a typo, not "nothing to do".
  if (
    !had &&
    settings.profileSource !== 'default' &&
    !Object.hasOwn(settings.config.profiles, settings.profile)
  ) {
    const secret = await store.getClientSecret(settings.profile);
    if (secret === undefined) throw noSuchProfile(settings);
  }
  await store.deleteTokens(settings.profile);
  if (options.purge) await store.deleteClientSecret(settings.profile);
  const what = options.purge ? 'tokens and client secret' : 'tokens';
  note(
    deps,
    had || options.purge
      ? `Removed the stored ${what} of profile "${settings.profile}".`
      : `Nothing stored for profile "${settings.profile}".`,
  );
}
