/**
 * The flags `token` and `exec` share: both obtain a token the same way (obtain-token.ts, the
 * session's token steps), so they take the same flags, read into the same options, checked by
 * the same functions — in the full CLI and in the launcher's cached answer alike.
 */
import { UsageError } from '../../../errors.js';
import { isAsciiDigits } from '../../../text/ascii-digits.js';
import type { FlagDef } from '../../command-model/types.js';

/** The options these flags give, keyed as commander keys them. */
export interface TokenFlags {
  email?: string;
  passwordStdin?: boolean;
  clientSecretStdin?: boolean;
  force?: boolean;
  minTtl: string;
  endOtherSessions?: boolean;
  /** false with `--no-store`. */
  store: boolean;
}

/** `--min-ttl`'s value in seconds, or a usage error: a whole number of seconds. */
export function parseMinTtl(raw: string): number {
  const seconds = Number(raw);
  if (!isAsciiDigits(raw) || !Number.isSafeInteger(seconds)) {
    throw new UsageError(`--min-ttl: "${raw}" is not a whole number of seconds`, 'e.g. --min-ttl 300');
  }
  return seconds;
}

export const GET_TOKEN_FLAGS: readonly FlagDef[] = [
  {
    long: '--email',
    value: '<email>',
    description:
      "user email for the client-credentials grant (env TOKENCLI_EMAIL; else the profile's, then the stored token's)",
    // Another user's token: the cached one may be someone else's.
    declinesCachedAnswer: true,
  },
  {
    long: '--password-stdin',
    description: 'read the password from stdin (or env TOKENCLI_PASSWORD)',
    declinesCachedAnswer: true,
  },
  {
    long: '--client-secret-stdin',
    description: 'read the client secret from stdin',
    declinesCachedAnswer: true,
  },
  { long: '--force', description: 'ignore the cached token', declinesCachedAnswer: true },
  {
    long: '--min-ttl',
    value: '<seconds>',
    description:
      "minimum remaining lifetime of a cached token; one as long as a token's whole life or longer counts as half that life",
    default: '60',
  },
  {
    long: '--end-other-sessions',
    description: "end the user's other sessions (endOtherSessions=True)",
    declinesCachedAnswer: true,
  },
  // An alias of `--store none`, which reads no cached token either: the full CLI answers it.
  {
    long: '--no-store',
    description: 'alias of the global --store none: read and keep no token',
    declinesCachedAnswer: true,
  },
];
