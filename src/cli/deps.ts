/**
 * The one dependencies object every command receives (`run(options, deps)`): settings, store,
 * client secret, HTTP settings, clock, browser opener, prompt and the per-profile lock. This is
 * where the preamble every network command shares lives (resolve settings → require the service →
 * open the store → lock), so it is written once.
 *
 * Everything is built lazily and at most once per run: the cached `tokencli token` path asks only
 * for the settings and the store, and none of the modules behind the other members (the lock, the
 * protocol layer, the browser opener) are loaded for it (start-up is benchmarked, SPEC.md §4).
 * Tests build one with `createDeps(…, overrides)` to replace the clock, the browser or the prompt.
 */
import { join } from 'node:path';
import type { HttpSettings, ServiceClient } from '../oauth/types.js';
import { openStore } from '../store/open-store.js';
import type { CredentialStore } from '../store/types.js';
import { type ConfigFile, updateConfig } from './config-file.js';
import type { CommandContext } from './context.js';
import { findSecret, missingSecret, promptHidden, type SecretSource } from './secrets.js';
import { type LocalOverrides, requireService, resolveSettings, type Settings } from './settings.js';

/** Base URL (no trailing slash) and client id of the service a command talks to. */
export interface ServiceCoordinates {
  baseUrl: string;
  clientId: string;
}

/** Opens a URL in a browser; failures are reported through `warn`, never thrown (SPEC.md §2.5). */
export type BrowserOpener = (url: string, warn: (line: string) => void) => Promise<unknown>;

/** What tests (and library callers) may replace. */
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
   * The settings, flag > environment > profile > default (SPEC.md §2.1). Resolved once per run:
   * the first call's local overrides (`--email`, `--redirect-uri`) are the ones that count.
   */
  settings(local?: LocalOverrides): Promise<Settings>;
  /** The settings' base URL and client id, or a usage error saying how to give them. */
  service(local?: LocalOverrides): Promise<ServiceCoordinates>;
  /** The credential store the settings name; warnings on stderr unless `--quiet`. */
  store(): Promise<CredentialStore>;
  /**
   * The client secret: `--client-secret-stdin`, TOKENCLI_CLIENT_SECRET, the store, then a hidden
   * prompt on a terminal; otherwise a usage error naming all of them.
   */
  clientSecret(fromStdin: boolean): Promise<string>;
  http(): Promise<HttpSettings>;
  /** Everything a request to the service needs; the client secret is left out for tokeninfo. */
  client(clientSecret?: string): Promise<ServiceClient>;
  /**
   * Runs `fn` under the profile's token lock, so parallel runs make one network exchange and a
   * login is not overwritten by a concurrent refresh. With the `none` store nothing persists and
   * nothing is shared, so no lock is taken.
   */
  withProfileLock<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Re-reads the config file, applies `change`, writes it back if it says so (config-file.ts).
   * Here rather than imported by profile-store.ts, so that module stays off the start-up chunks.
   */
  updateConfig(change: (config: ConfigFile) => boolean): Promise<void>;
  /** The client secret this run read from the hidden prompt, if any (kept by rememberProfile). */
  typedClientSecret(): string | undefined;
  openBrowser: BrowserOpener;
  promptHidden(prompt: string): Promise<string>;
}

/**
 * What the profile commands (`status`, `logout`, `profile`) need from the settings, the config file
 * and the store layer, taken from here: a lazily loaded command that imports those modules without
 * this one makes the bundler split them off the start-up chunks (one more file for every cached
 * `tokencli token`; scripts/bundle.mjs).
 */
export { configPath } from './config-file.js';
export { checkProfileName, noSuchProfile } from './settings.js';
export { openStore };

export function clientSecretSource(fromStdin: boolean): SecretSource {
  return {
    label: 'client secret',
    stdinFlag: '--client-secret-stdin',
    envVar: 'TOKENCLI_CLIENT_SECRET',
    fromStdin,
  };
}

/** How long a run waits for the profile lock: long enough for another run's full exchange. */
export function lockTimeoutMs(settings: Settings): number {
  // Up to three attempts of `timeoutMs` each (retry policy) plus slack for the store.
  return settings.timeoutMs * 3 + 10_000;
}

/** One lock file per profile, shared by `token`, `refresh`, `login` and `sso`. */
export function profileLockPath(settings: Settings): string {
  return join(settings.configDir, 'locks', `${settings.profile}.lock`);
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

export function createDeps(ctx: CommandContext, overrides: DepsOverrides = {}): Deps {
  let settingsPromise: Promise<Settings> | undefined;
  const settings = (local?: LocalOverrides) => {
    settingsPromise ??= resolveSettings(ctx, local);
    return settingsPromise;
  };
  const warn = (line: string) => {
    if (!ctx.globals.quiet) ctx.io.stderr.write(`${line}\n`);
  };
  let typedClientSecret: string | undefined;
  const store = once(async () => {
    const resolved = await settings();
    try {
      return await openStore({
        kind: resolved.storeKind,
        configDir: resolved.configDir,
        warn,
        // Loaded only when needed: the cached `token` path never falls back or fails here.
        onFallback: async (reason, filePath) => {
          const { announceFallback } = await import('./profile-store.js');
          await announceFallback(resolved, reason, filePath, warn, ctx.globals.quiet, deps.updateConfig);
        },
      });
    } catch (error) {
      const { storeUnreachable } = await import('./profile-store.js');
      throw storeUnreachable(error, resolved);
    }
  });
  const http = async (): Promise<HttpSettings> => {
    const resolved = await settings();
    return {
      timeoutMs: resolved.timeoutMs,
      caFile: resolved.caFile,
      trace: ctx.globals.verbose ? (line) => ctx.io.stderr.write(`${line}\n`) : undefined,
      ...overrides.http,
    };
  };
  let overrideWarned = false;
  const service = async (local?: LocalOverrides) => {
    const resolved = await settings(local);
    const coordinates = requireService(resolved);
    if (!overrideWarned && resolved.overrides.length > 0) {
      overrideWarned = true;
      const { overrideWarning } = await import('./profile-store.js');
      warn(overrideWarning(resolved));
    }
    return coordinates;
  };

  const deps: Deps = {
    ...ctx,
    now: overrides.now ?? (() => new Date()),
    settings,
    service,
    store,
    http,
    async client(clientSecret) {
      const coordinates = await service();
      return { ...coordinates, clientSecret, http: await http(), now: deps.now };
    },
    async clientSecret(fromStdin) {
      const source = clientSecretSource(fromStdin);
      if (!fromStdin && !ctx.io.env[source.envVar]) {
        const stored = await (await store()).getClientSecret((await settings()).profile);
        if (stored) return stored;
      }
      const secret = await findSecret(deps, source);
      if (secret === undefined) throw missingSecret(source, 'save it with `tokencli configure`');
      // Typed at the prompt: kept with the profile once the service accepts it (rememberProfile).
      if (!fromStdin && !ctx.io.env[source.envVar]) typedClientSecret = secret;
      return secret;
    },
    typedClientSecret: () => typedClientSecret,
    async updateConfig(change) {
      await updateConfig((await settings()).configDir, change);
    },
    async withProfileLock(fn) {
      const [resolved, opened] = await Promise.all([settings(), store()]);
      if (opened.kind === 'none') return fn();
      const { withFileLock } = await import('../fs/lock.js');
      return withFileLock(profileLockPath(resolved), fn, {
        timeoutMs: lockTimeoutMs(resolved),
        signal: ctx.signal,
      });
    },
    openBrowser:
      overrides.openBrowser ??
      (async (url, warn) => {
        const { openBrowser } = await import('../login/open-browser.js');
        return openBrowser(url, { env: ctx.io.env, warn });
      }),
    promptHidden: overrides.promptHidden ?? ((prompt) => promptHidden(ctx, prompt)),
  };
  return deps;
}
