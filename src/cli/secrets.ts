/**
 * Secrets come from stdin (`--…-stdin`), an environment variable, or a prompt without echo on a
 * terminal — never from a flag value, which would show in `ps` and shell history (docs/contract.md §2.1).
 */
import { TokencliError, UsageError } from '../errors.js';
import type { ServiceError } from '../oauth/service-error.js';
import { GrantType } from '../protocol/grants.js';
import type { SecretSource as SessionSecrets } from '../session/secret-source.js';
import { sanitizeText } from '../text/sanitize.js';
import { EscapeSequenceFilter, editHiddenLine } from '../text/terminal-keys.js';
import type { CommandContext } from './context.js';

export interface SecretSource {
  /** What it is, for prompts and errors: "password", "client secret". */
  label: string;
  /** The flag that reads it from stdin, e.g. `--password-stdin`. */
  stdinFlag: string;
  /** The environment variable that may hold it, e.g. `TOKENCLI_PASSWORD`. */
  envVar: string;
  /** Whether the stdin flag was given. */
  fromStdin: boolean;
  /** The terminal prompt, when it should say more than the label ("Password for a@b.example: "). */
  prompt?: string;
}

/** A command's context plus the prompt to ask on (the deps object of `deps.ts`). */
export interface SecretContext extends CommandContext {
  promptHidden(prompt: string): Promise<string>;
}

const MAX_STDIN_BYTES = 64 * 1024;

/** Reads all of stdin as one secret: one trailing newline removed, nothing else touched. */
export async function readStdinSecret(ctx: CommandContext, what: string, flag: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.io.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_STDIN_BYTES) throw new UsageError(`${flag}: the ${what} on stdin is larger than 64 KiB`);
    chunks.push(buffer);
  }
  const value = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (value === '') {
    throw new UsageError(
      `${flag}: stdin was empty`,
      `pipe the ${what} in, e.g. printf %s "$VALUE" | tokencli … ${flag}`,
    );
  }
  return value;
}

/**
 * Prompts on the terminal without echoing what is typed. Ctrl-C aborts (exit 130); Ctrl-U clears
 * what was typed, Ctrl-W erases the last word, Backspace the last character.
 */
export function promptHidden(ctx: CommandContext, prompt: string): Promise<string> {
  const { stdin, stderr } = ctx.io;
  const tty = stdin as NodeJS.ReadStream;
  return new Promise((resolve, reject) => {
    let value = '';
    // Arrow keys and the like arrive as escape sequences: never part of the secret.
    const keys = new EscapeSequenceFilter();
    // Echo off before the prompt shows: whatever is typed (or pasted) after it must never appear.
    tty.setRawMode?.(true);
    stderr.write(prompt);
    const finish = (error?: Error) => {
      tty.setRawMode?.(false);
      tty.off('data', onData);
      tty.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (data: Buffer | string) => {
      for (const char of data.toString('utf8')) {
        if (!keys.accept(char)) continue;
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(new TokencliError('interrupted', { code: 'interrupted' }));
        // Ctrl-U, Ctrl-W and Backspace edit the line as sudo's and ssh's prompts do.
        value = editHiddenLine(value, char) ?? value + char;
      }
    };
    tty.resume();
    tty.on('data', onData);
  });
}

/**
 * Finds a secret: stdin flag, then environment, then (on a terminal) a hidden prompt. Returns
 * undefined when none is available and stdin is not a terminal, so callers decide whether that
 * is a usage error (see `missingSecret`) or a fall-through.
 */
export async function findSecret(ctx: SecretContext, source: SecretSource): Promise<string | undefined> {
  if (source.fromStdin) return readStdinSecret(ctx, source.label, source.stdinFlag);
  const fromEnv = ctx.io.env[source.envVar];
  if (fromEnv) return fromEnv;
  if (ctx.io.stdinIsTTY) {
    const typed = await ctx.promptHidden(
      source.prompt ?? `${source.label[0]?.toUpperCase()}${source.label.slice(1)}: `,
    );
    if (typed === '') throw new UsageError(`no ${source.label} entered`);
    return typed;
  }
  return undefined;
}

export function missingSecret(source: SecretSource, alternative?: string): UsageError {
  return new UsageError(
    `no ${source.label}, and stdin is not a terminal to ask for one`,
    `pipe it to ${source.stdinFlag} or set ${source.envVar}${alternative ? `, or ${alternative}` : ''}`,
  );
}

/** Only one `--…-stdin` flag can own stdin in one run. */
export function assertOneStdinReader(flags: Array<[boolean | undefined, string]>): void {
  const given = flags.filter(([on]) => on).map(([, name]) => name);
  if (given.length > 1) {
    throw new UsageError(
      `${given.join(' and ')} both want stdin`,
      'give one secret on stdin and the other in its environment variable',
    );
  }
}

export function clientSecretSource(fromStdin: boolean): SecretSource {
  return {
    label: 'client secret',
    stdinFlag: '--client-secret-stdin',
    envVar: 'TOKENCLI_CLIENT_SECRET',
    fromStdin,
  };
}

export function passwordSource(fromStdin: boolean): SecretSource {
  return { label: 'password', stdinFlag: '--password-stdin', envVar: 'TOKENCLI_PASSWORD', fromStdin };
}

/**
 * The session's secrets as the CLI gets them: the `--…-stdin` flag, else the variable; the client
 * secret then from the store (the session's step), then a hidden prompt on a terminal.
 */
export function cliSecrets(
  ctx: SecretContext,
  flags: { clientSecretStdin?: boolean | undefined; passwordStdin?: boolean | undefined },
): SessionSecrets {
  const clientSecret = clientSecretSource(flags.clientSecretStdin === true);
  const password = passwordSource(flags.passwordStdin === true);
  const given = (source: SecretSource) =>
    source.fromStdin
      ? readStdinSecret(ctx, source.label, source.stdinFlag)
      : Promise.resolve(ctx.io.env[source.envVar] || undefined);
  return {
    clientSecret: () => given(clientSecret),
    askClientSecret: async () => (ctx.io.stdinIsTTY ? findSecret(ctx, clientSecret) : undefined),
    // The prompt names the account, as a person may hold several (the email is shown sanitized).
    password: (email) => findSecret(ctx, { ...password, prompt: `Password for ${sanitizeText(email)}: ` }),
    passwordGiven: () => password.fromStdin || !!ctx.io.env[password.envVar],
    canAsk: ctx.io.stdinIsTTY,
  };
}

/** Tries at the terminal prompt before a refused password ends the run, as sudo and gh allow. */
export const PASSWORD_TRIES = 3;

/** The service refused the user's email and password (docs/contract.md §1: subcode 017). */
function refusedPassword(error: unknown): boolean {
  if (!(error instanceof TokencliError) || error.name !== 'ServiceError') return false;
  const refused = error as ServiceError;
  return (
    refused.context.grantType === GrantType.clientCredentials &&
    (refused.subcode === '017' || refused.serviceCode === 'invalid_grant')
  );
}

/**
 * Runs `attempt` (which may ask for the password) again when the service refused a password
 * typed at the terminal prompt, up to PASSWORD_TRIES in all; a password given by stdin or the
 * variable cannot change by asking again, so its refusal ends the run at once, as in a script.
 */
export async function withPasswordTries<T>(
  ctx: CommandContext,
  flags: { passwordStdin?: boolean | undefined },
  attempt: () => Promise<T>,
): Promise<T> {
  const source = passwordSource(flags.passwordStdin === true);
  const typed = ctx.io.stdinIsTTY && !source.fromStdin && !ctx.io.env[source.envVar];
  for (let tried = 1; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (!typed || tried >= PASSWORD_TRIES || !refusedPassword(error)) throw error;
      ctx.io.stderr.write('Sorry, the service refused that password; try again.\n');
    }
  }
}
