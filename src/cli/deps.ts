/**
 * The one dependencies object every command receives (`run(options, deps)`): the command's
 * context plus the session (src/session) built from the global flags and the environment, the
 * CLI's secret source (stdin flags, variables, a hidden prompt) and its event printer.
 *
 * Everything is built lazily and at most once per run: the cached `tokencli token` path asks only
 * for the settings and the store, and none of the modules behind the other members (the lock, the
 * protocol layer, the browser opener) are loaded for it (start-up is benchmarked, docs/contract.md §4).
 * Tests build one with `createDeps(…, overrides)` to replace the clock, the browser or the prompt.
 */
import type { HttpSettings } from '../http/settings.js';
import type { ConfigFile } from '../session/config-file.js';
import { updateConfig } from '../session/config-file.js';
import { type BrowserOpener, Session } from '../session/session.js';
import type { ServiceCoordinates, Settings } from '../session/settings.js';
import type { CredentialStore } from '../store/types.js';
import type { CommandContext } from './context.js';
import { cliSecrets, promptHidden } from './input/secrets.js';
import { rememberRun } from './output/paste-command.js';
import { printSessionEvent } from './output/session-events.js';
import { type LocalOverrides, sessionOptions } from './session-options.js';

export type { BrowserOpener, LocalOverrides, ServiceCoordinates };

/** What tests may replace. */
export interface DepsOverrides {
  /** The clock deciding whether a cached token is still fresh; default `new Date()`. */
  now?: () => Date;
  /** Default: `login/open-browser.ts` (BROWSER or the system's opener). */
  openBrowser?: BrowserOpener;
  /** Hidden prompt on the terminal; default: `promptHidden` on the IO's stdin. */
  promptHidden?: (prompt: string) => Promise<string>;
  /** Extra HTTP settings merged into every request's (a test transport, a fast retry sleep). */
  http?: Partial<HttpSettings>;
}

export interface Deps extends CommandContext {
  now(): Date;
  /**
   * The run's session: settings flag > environment > profile > default (docs/contract.md §2.1), resolved
   * once; the first call's local overrides (`--email`, `--redirect-uri`) are the ones that count.
   */
  session(local?: LocalOverrides): Session;
  settings(local?: LocalOverrides): Promise<Settings>;
  /** The settings' base URL and client id, or a usage error saying how to give them. */
  service(): Promise<ServiceCoordinates>;
  /** The credential store the settings name; warnings on stderr unless `--quiet`. */
  store(): Promise<CredentialStore>;
  http(): Promise<HttpSettings>;
  /** The CLI's secrets for the session: the `--…-stdin` flags, the variables, a hidden prompt. */
  secrets(flags: {
    clientSecretStdin?: boolean | undefined;
    passwordStdin?: boolean | undefined;
  }): ReturnType<typeof cliSecrets>;
  /** Re-reads the config file, applies `change`, writes it back if it says so (config-file.ts). */
  updateConfig(change: (config: ConfigFile) => boolean): Promise<void>;
  promptHidden(prompt: string): Promise<string>;
}

export function createDeps(ctx: CommandContext, overrides: DepsOverrides = {}): Deps {
  // Known before the command runs, so its every error is said with this run's flags. Here, not
  // where session options are made: the cached token's light answer makes those without a run's
  // signal, and must not create one (an AbortController costs a module load).
  rememberRun(ctx);
  const now = overrides.now ?? (() => new Date());
  let session: Session | undefined;
  const sessionFor = (local?: LocalOverrides) => {
    session ??= new Session({
      ...sessionOptions(ctx, local),
      env: ctx.io.env,
      signal: ctx.signal,
      onEvent: (event) => printSessionEvent(ctx, event),
      announceStoreFallback: !ctx.globals.quiet,
      readOnly: ctx.readOnly,
      now,
      openBrowser: overrides.openBrowser,
      http: {
        trace: ctx.globals.verbose ? (line) => ctx.io.stderr.write(`${line}\n`) : undefined,
        ...overrides.http,
      },
    });
    return session;
  };
  const deps: Deps = {
    ...ctx,
    now,
    session: sessionFor,
    settings: (local) => sessionFor(local).settings(),
    service: () => sessionFor().service(),
    store: () => sessionFor().store(),
    http: () => sessionFor().http(),
    secrets: (flags) => cliSecrets(deps, flags),
    async updateConfig(change) {
      await updateConfig((await deps.settings()).configDir, change);
    },
    promptHidden: overrides.promptHidden ?? ((prompt) => promptHidden(ctx, prompt)),
  };
  return deps;
}
