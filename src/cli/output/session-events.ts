/**
 * The session's events in the CLI's words on stderr (the same lines the commands always said):
 * warnings and progress are silenced by `--quiet`, the refused refresh is said with `--verbose`,
 * the login URL is shown in every case (docs/contract.md §2.5).
 */
import type { SessionEvent } from '../../session/events.js';
import type { ServiceOverride } from '../../session/settings.js';
import { formatDuration } from '../../text/duration.js';
import type { CommandContext } from '../context.js';
import { type CommandFor, commandsFor, targetOf } from './paste-command.js';
import { noteLine } from './prefixes.js';
import { originName } from './setting-names.js';

const SETTING_WORDS: Record<ServiceOverride['setting'], string> = {
  baseUrl: 'base URL',
  clientId: 'client id',
};

/** The stderr lines for options that name another service than the profile recorded. */
function overrideWarning(profile: string, overrides: ServiceOverride[], cmd: CommandFor): string {
  const parts = overrides.map(
    (o) =>
      `${SETTING_WORDS[o.setting]} ${o.given} (from ${originName(o.setting, o.origin)}) instead of the profile's ${o.recorded}`,
  );
  return (
    `warning: this run uses ${parts.join(' and ')}; the credentials stored in profile "${profile}" belong to that other service and are not used, and nothing obtained now is kept in it` +
    `\nhint: to switch the profile to it, run ${cmd('configure', profile)}; to keep both, add --profile NAME`
  );
}

function words(event: SessionEvent, cmd: CommandFor): string | undefined {
  switch (event.code) {
    case 'store_warning':
      return event.message;
    case 'store_fallback':
      return (
        `warning: OS keychain unavailable (${event.reason}); keeping the credentials of profile "${event.profile}" in ${event.filePath}` +
        `\nhint: said once per profile; to choose the file store yourself, run ${cmd('configure --store file', event.profile)} or set TOKENCLI_STORE=file`
      );
    case 'service_override':
      return overrideWarning(event.profile, event.overrides, cmd);
    case 'min_ttl_too_long':
      return `warning: --min-ttl ${event.minTtlSeconds}s is ${event.minTtlSeconds === event.lifeSeconds ? 'as long as' : 'longer than'} the token's whole life (${formatDuration(event.lifeSeconds)}); the cached token is used while half its life (${formatDuration(event.lifeSeconds / 2)}) is left`;
    case 'login_progress':
      return event.message;
    case 'login_warning':
      return `warning: ${event.message}`;
    case 'authorize_check_inconclusive':
      return `warning: the authorize URL answered HTTP ${event.status} to a check made without a browser; the browser may not get a login page either (--verbose shows the answer); waiting for it anyway`;
    case 'client_secret_not_stored':
      return (
        `warning: the client secret given for this login (TOKENCLI_CLIENT_SECRET or --client-secret-stdin) was not stored, and the ${event.store} store of profile "${event.profile}" holds none: renewing these tokens later (${cmd('token', event.profile)}, ${cmd('refresh', event.profile)}) needs it given again` +
        `\nhint: to keep it with the profile, run ${cmd('configure', event.profile)} with TOKENCLI_CLIENT_SECRET set, or pipe the secret to its --client-secret-stdin`
      );
    default:
      return undefined;
  }
}

export function printSessionEvent(ctx: CommandContext, event: SessionEvent): void {
  const { stderr } = ctx.io;
  if (event.code === 'login_url') {
    stderr.write(`  ${event.url}\n`);
    return;
  }
  if (event.code === 'refresh_refused') {
    if (ctx.globals.verbose) stderr.write(`refresh refused (${event.message}); trying client credentials\n`);
    return;
  }
  const text = words(event, commandsFor(targetOf(ctx)));
  if (text !== undefined) noteLine(ctx, text);
}
