/**
 * What the CLI says when a token it obtained was not kept for the profile (src/session/kept.ts),
 * and the hint for "not logged in" when the run names another service than the profile records.
 * Under such an override (docs/contract.md §2.1) nothing obtained is kept in the profile, so
 * "run `tokencli login`" would only lead to another login that is not kept: the hints name a
 * profile of its own (`--profile NAME`) or `configure`, which points the profile at the service.
 */
import { NotLoggedInError, TokencliError } from '../errors.js';
import type { NotStoredReason } from '../session/kept.js';
import type { ServiceOverride, Settings } from '../session/settings.js';
import type { Deps } from './deps.js';
import { type RunTarget, tokencliCommand } from './paste-command.js';
import { noteLine } from './prefixes.js';
import { originName } from './setting-names.js';

const SETTING_WORDS: Record<ServiceOverride['setting'], string> = {
  baseUrl: 'base URL',
  clientId: 'client id',
};

/** `base URL http://127.0.0.1:8080 where profile "default" records http://localhost:8080`. */
function overrideWords(settings: Settings): string {
  return settings.overrides
    .map(
      (o) =>
        `${SETTING_WORDS[o.setting]} ${o.given} where profile "${settings.profile}" records ${o.recorded}`,
    )
    .join(', and ');
}

/** The run's service as the flags that name it, whether it came from flags or variables. */
function overrideTarget(overrides: ServiceOverride[]): RunTarget {
  const target: RunTarget = {};
  for (const o of overrides) target[o.setting] = o.given;
  return target;
}

/** What to do for a lasting login to the service this run names. */
function keepHint(settings: Settings): string {
  const target = overrideTarget(settings.overrides);
  return (
    `to keep a login for this service, log in under a profile of its own (${tokencliCommand(target, 'login', 'NAME')}), ` +
    `or point profile "${settings.profile}" at it (${tokencliCommand(target, 'configure', settings.profile)})`
  );
}

/** Why a token was not stored, as the end of "…, not stored: <why>". */
export function notStoredWhy(reason: NotStoredReason, settings: Settings): string {
  switch (reason) {
    case 'service_override':
      return `this run uses ${overrideWords(settings)}, and a profile keeps only tokens of the service it records`;
    case 'store_none':
      return 'the credential store is "none"';
    case 'not_asked':
      return '--no-store';
  }
}

/** Says the hint after a token that was not stored, where there is something to do about it. */
export function noteNotStoredHint(deps: Deps, reason: NotStoredReason, settings: Settings): void {
  if (reason === 'service_override') noteLine(deps, `hint: ${keepHint(settings)}`);
}

/**
 * "Not logged in" under an override: the same error with a hint that does not loop back to a
 * login that would not be kept. For a token stored for the profile's own service, leaving out
 * the overriding flags or variables uses it.
 */
export function withOverrideHint(error: unknown, settings: Settings | undefined): unknown {
  if (
    settings === undefined ||
    settings.overrides.length === 0 ||
    !(error instanceof TokencliError) ||
    error.code !== 'not_logged_in' ||
    error.hint !== undefined
  ) {
    return error;
  }
  const origins = settings.overrides.map((o) => originName(o.setting, o.origin)).join(' and ');
  const useStored =
    error.reason === 'other_service'
      ? `to use the token profile "${settings.profile}" holds, leave out ${origins}; `
      : '';
  const hint = `${useStored}this run uses ${overrideWords(settings)}, so nothing obtained in it is kept there and \`tokencli login\` alone would not help; ${keepHint(settings)}`;
  return new NotLoggedInError(error.message, hint, error.reason, { ...error.details });
}
