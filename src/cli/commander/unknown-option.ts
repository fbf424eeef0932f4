/**
 * What tokencli says about an option it does not know. Secrets are refused as flag values on
 * purpose (they would show in `ps` and shell history, docs/contract.md §2.1), so a flag that looks like
 * one gets a hint naming the safe way to pass it. The value after `=` is never echoed: whatever
 * was typed there may be a secret.
 */
import { sanitizeText } from '../../text/sanitize.js';
import type { CommandFor } from '../output/paste-command.js';

interface SecretFlagAdvice {
  what: string;
  /** What to do instead; a command it names carries the run's profile flags (`cmd`). */
  instead: (cmd: CommandFor) => string;
}

const PASSWORD: SecretFlagAdvice = {
  what: 'passwords',
  instead: () => 'pipe it to --password-stdin or set TOKENCLI_PASSWORD',
};
const CLIENT_SECRET: SecretFlagAdvice = {
  what: 'client secrets',
  instead: () => 'pipe it to --client-secret-stdin or set TOKENCLI_CLIENT_SECRET',
};
const ACCESS_TOKEN: SecretFlagAdvice = {
  what: 'tokens',
  instead: (cmd) =>
    `pipe it to ${cmd('info --token-stdin')}; commands that need one read it from the credential store`,
};
const REFRESH_TOKEN: SecretFlagAdvice = {
  what: 'refresh tokens',
  instead: (cmd) => `run ${cmd('login')} once; token and refresh then use the stored refresh token`,
};

/** Flag names (ASCII-lowercased, without dashes or `=value`) that look like a secret. */
const SECRET_FLAGS: Record<string, SecretFlagAdvice> = {
  password: PASSWORD,
  passwd: PASSWORD,
  pass: PASSWORD,
  pw: PASSWORD,
  'client-secret': CLIENT_SECRET,
  clientsecret: CLIENT_SECRET,
  client_secret: CLIENT_SECRET,
  secret: CLIENT_SECRET,
  token: ACCESS_TOKEN,
  'access-token': ACCESS_TOKEN,
  access_token: ACCESS_TOKEN,
  bearer: ACCESS_TOKEN,
  'refresh-token': REFRESH_TOKEN,
  refresh_token: REFRESH_TOKEN,
};

/** `--password=hunter2` → `--password`; `-x` stays as it is. */
export function flagName(arg: string): string {
  const equals = arg.indexOf('=');
  return arg.startsWith('--') && equals > 0 ? arg.slice(0, equals) : arg;
}

const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

export function secretFlagAdvice(arg: string): SecretFlagAdvice | undefined {
  const name = asciiLower(flagName(arg)).replace(/^-{1,2}/, '');
  return Object.hasOwn(SECRET_FLAGS, name) ? SECRET_FLAGS[name] : undefined;
}

/**
 * The error for a secret-looking unknown flag (undefined for any other flag, which keeps
 * commander's wording and its "did you mean").
 */
export function secretFlagMessage(arg: string, cmd: CommandFor): string | undefined {
  const advice = secretFlagAdvice(arg);
  if (!advice) return undefined;
  return `error: unknown option '${sanitizeText(flagName(arg))}'\nhint: ${advice.what} are never taken as flag values (they would show in ps and shell history); ${advice.instead(cmd)}`;
}
