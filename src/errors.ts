/**
 * The one error type every layer throws for expected failures. Only `src/cli/main.ts` turns it into
 * output and an exit code (SPEC.md §2.6); layers below never print.
 */

/** Exit codes of SPEC.md §2.6. */
export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  refused: 3,
  notLoggedIn: 4,
  unavailable: 5,
  loginIncomplete: 6,
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface TokencliErrorOptions {
  exitCode: ExitCodeValue;
  /** What the user can do about it; printed as `hint: …`. */
  hint?: string | undefined;
  cause?: unknown;
}

export class TokencliError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly hint: string | undefined;

  constructor(message: string, options: TokencliErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TokencliError';
    this.exitCode = options.exitCode;
    this.hint = options.hint;
  }
}

/** Bad flag, missing or malformed input, refused plain-http base URL, port taken: exit 2. */
export class UsageError extends TokencliError {
  constructor(message: string, hint?: string, cause?: unknown) {
    super(message, { exitCode: ExitCode.usage, hint, cause });
    this.name = 'UsageError';
  }
}

/** Nothing usable stored (not logged in, no refresh token, refresh token expired): exit 4. */
export class NotLoggedInError extends TokencliError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.notLoggedIn, hint });
    this.name = 'NotLoggedInError';
  }
}
