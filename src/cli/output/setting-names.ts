/** The CLI's names for the session layer's settings and their origins: flags and variables. */
import type { SettingName, SettingOrigin } from '../../session/setting-error.js';
import type { ProfileSource } from '../../session/settings.js';

export const FLAG_OF_SETTING: Record<SettingName, string> = {
  profile: '--profile',
  baseUrl: '--base-url',
  clientId: '--client-id',
  store: '--store',
  timeoutSeconds: '--timeout',
  caFile: '--ca-file',
  email: '--email',
  redirectUri: '--redirect-uri',
};

/** `--base-url`, `TOKENCLI_BASE_URL` or `profile "work" base_url`. */
export function originName(setting: SettingName, origin: SettingOrigin): string {
  switch (origin.kind) {
    case 'option':
      return FLAG_OF_SETTING[setting];
    case 'environment':
      return origin.variable;
    case 'profile':
      return `profile "${origin.profile}" ${origin.key}`;
    case 'named':
      return origin.label;
  }
}

/** Where the profile name came from, as `status` and the errors say it. */
export function profileSourceName(source: ProfileSource): string {
  switch (source) {
    case 'option':
      return '--profile';
    case 'environment':
      return 'TOKENCLI_PROFILE';
    default:
      return source;
  }
}
