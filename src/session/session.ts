/**
 * One session: the settings resolved once, the store opened once (lazily), the per-profile lock,
 * and the profile's token object — what the CLI's commands and the library's `TokenClient` both
 * stand on. Nothing here prints, prompts or names a CLI flag: warnings leave as events, secrets
 * come from the caller's `SecretSource`, errors carry a code and a reason.
 *
 * Everything is built lazily: the cached-token path asks only for the settings and the store, and
 * none of the modules behind the other members (the lock, the protocol layer, the browser opener)
 * are loaded for it (start-up is benchmarked, docs/contract.md §4).
 */
import { join } from 'node:path';
import { TokencliError } from '../errors.js';
import type { HttpSettings } from '../http/settings.js';
import type { ServiceClient } from '../oauth/types.js';
import { type OpenStoreOptions, openStore } from '../store/open-store.js';
import type { CredentialStore } from '../store/types.js';
import { type ConfigFile, updateConfig } from './config-file.js';
import type { EventSink, SessionEvent } from './events.js';
import type { ProfileTokens } from './profile-tokens.js';
import type { SecretSource } from './secret-source.js';
import {
  requireService,
  resolveSettings,
  type ServiceCoordinates,
  type SettingOptions,
  type Settings,
} from './settings.js';

/**
 * Where a session's client secret came from: given for this run (the caller's option, a variable,
 * stdin), the profile's store, or asked of a person (then kept in the store once it worked).
 */
export type ClientSecretOrigin = 'given' | 'stored' | 'asked';

/** Opens a URL in a browser; failures are reported through `warn`, never thrown. */
export type BrowserOpener = (url: string, warn: (line: string) => void) => Promise<unknown>;

export interface SessionOptions extends SettingOptions {
  /** Where TOKENCLI_* settings and the config directory are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Cancels waits and requests; operations reject with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Receives warnings and progress; default: dropped. */
  onEvent?: EventSink | undefined;
  /**
   * Whether the default store falling back to the file is announced (once per profile, recorded
   * in the config file); default true. The CLI's `--quiet` turns it off.
   */
  announceStoreFallback?: boolean | undefined;
  /**
   * A session that only looks (`status`, `profile list|show`, `info`): it never writes the config
   * file nor creates the config directory. The default store's fallback to the file is then
   * neither announced nor recorded — the notice is said once per profile, so a look must not use
   * it up — and `updateConfig` refuses. The credential store may still be written where the
   * contract says so (a refused cached token is dropped, docs/contract.md §2.3).
   */
  readOnly?: boolean | undefined;
  /** The clock deciding whether a cached token is still fresh; default `new Date()`. */
  now?: (() => Date) | undefined;
  /** Extra HTTP settings merged into every request's (a transport, a trace, a fast retry sleep). */
  http?: Partial<HttpSettings> | undefined;
  /** Default: `login/open-browser.ts` (BROWSER or the system's opener). */
  openBrowser?: BrowserOpener | undefined;
  /** Default: src/store/open-store.ts; tests observe how often the store is opened. */
  openStore?: ((options: OpenStoreOptions) => Promise<CredentialStore>) | undefined;
}

/** How long a session waits for the profile lock: long enough for another run's full exchange. */
export function lockTimeoutMs(settings: Settings): number {
  // Up to three attempts of `timeoutMs` each (retry policy) plus slack for the store.
  return settings.timeoutMs * 3 + 10_000;
}

/** One lock file per profile, shared by every operation that stores a token. */
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

export class Session {
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  /**
   * The same clock in milliseconds: the `now` option's reading, or Date.now() without one. Judging
   * a cached token needs no Date, and making a process's first one costs V8 a reading of the time
   * zone (/etc/localtime and ICU's zone data, about 0.2 ms on Node 26), which a cached
   * `tokencli token` need never pay.
   */
  readonly time: () => number;
  readonly settings: () => Promise<Settings>;
  readonly store: () => Promise<CredentialStore>;
  readonly tokens: () => Promise<ProfileTokens>;
  private readonly options: SessionOptions;
  private ownSignal: AbortSignal | undefined;
  private overrideAnnounced = false;
  private askedClientSecret: string | undefined;
  private clientSecretFrom: ClientSecretOrigin | undefined;

  constructor(options: SessionOptions = {}) {
    this.options = options;
    this.env = options.env ?? process.env;
    const clock = options.now;
    this.now = clock ?? (() => new Date());
    this.time = clock ? () => clock().getTime() : Date.now;
    this.settings = once(() => resolveSettings(options, this.env));
    this.store = once(() => this.openStore());
    this.tokens = once(async () => {
      // In this order: a missing service is said before the store is opened (or falls back).
      const settings = await this.settings();
      const service = await this.service();
      const store = await this.store();
      const { ProfileTokens } = await import('./profile-tokens.js');
      return new ProfileTokens(this, settings, service, store);
    });
  }

  /** The caller's signal, or one never aborted, made when first asked for (a cached token never is). */
  get signal(): AbortSignal {
    this.ownSignal ??= this.options.signal ?? new AbortController().signal;
    return this.ownSignal;
  }

  emit(event: SessionEvent): void {
    this.options.onEvent?.(event);
  }

  /** The settings' base URL and client id, or an error saying which are missing. */
  async service(): Promise<ServiceCoordinates> {
    const settings = await this.settings();
    const coordinates = requireService(settings);
    if (!this.overrideAnnounced && settings.overrides.length > 0) {
      this.overrideAnnounced = true;
      this.emit({ code: 'service_override', profile: settings.profile, overrides: settings.overrides });
    }
    return coordinates;
  }

  async http(): Promise<HttpSettings> {
    const settings = await this.settings();
    return { timeoutMs: settings.timeoutMs, caFile: settings.caFile, ...this.options.http };
  }

  /** Everything a request to the service needs; the client secret is left out for tokeninfo. */
  async client(clientSecret?: string): Promise<ServiceClient> {
    const [coordinates, http] = await Promise.all([this.service(), this.http()]);
    return { ...coordinates, clientSecret, http, now: this.now };
  }

  /** The client secret: given for this run, else stored for the profile, else asked for. */
  async clientSecret(secrets: SecretSource): Promise<string> {
    const given = await secrets.clientSecret();
    if (given !== undefined) {
      this.clientSecretFrom = 'given';
      return given;
    }
    const stored = await (await this.store()).getClientSecret((await this.settings()).profile);
    if (stored) {
      this.clientSecretFrom = 'stored';
      return stored;
    }
    const asked = await secrets.askClientSecret?.();
    if (asked !== undefined) {
      this.askedClientSecret = asked;
      this.clientSecretFrom = 'asked';
      return asked;
    }
    throw new TokencliError(
      'no client secret: give one (clientSecret), or store one with `tokencli configure`',
      {
        code: 'usage',
        reason: 'client_secret_missing',
      },
    );
  }

  /** Where this session's client secret came from, once `clientSecret` gave one. */
  clientSecretOrigin(): ClientSecretOrigin | undefined {
    return this.clientSecretFrom;
  }

  /** A client secret a person typed this session: kept with the profile once it worked. */
  typedClientSecret(): string | undefined {
    return this.askedClientSecret;
  }

  /** Re-reads the config file and applies `change` to what is there now. */
  async updateConfig(change: (config: ConfigFile) => boolean): Promise<void> {
    if (this.options.readOnly) {
      // A slip in a command that only looks: fail loudly rather than write behind its back.
      throw new TokencliError('a read-only session does not write the config file', { code: 'internal' });
    }
    await updateConfig((await this.settings()).configDir, change);
  }

  /** Runs `fn` holding the profile's lock (none is needed with the `none` store). */
  async withProfileLock<T>(fn: () => Promise<T>): Promise<T> {
    const [settings, store] = await Promise.all([this.settings(), this.store()]);
    if (store.kind === 'none') return fn();
    const { withFileLock } = await import('../fs/lock.js');
    return withFileLock(profileLockPath(settings), fn, {
      timeoutMs: lockTimeoutMs(settings),
      signal: this.signal,
    });
  }

  /** The browser opener of this session. */
  openBrowser(url: string, warn: (line: string) => void): Promise<unknown> {
    if (this.options.openBrowser) return this.options.openBrowser(url, warn);
    return import('../login/open-browser.js').then(({ openBrowser }) =>
      openBrowser(url, { env: this.env, warn }),
    );
  }

  private async openStore(): Promise<CredentialStore> {
    const settings = await this.settings();
    const open = this.options.openStore ?? openStore;
    try {
      return await open({
        kind: settings.storeKind,
        configDir: settings.configDir,
        warn: (line) => this.emit({ code: 'store_warning', message: line }),
        // Loaded only when needed: the cached-token path never falls back or fails here.
        onFallback: async (reason, filePath) => {
          if (this.options.announceStoreFallback === false || this.options.readOnly) return;
          const { announceFallback } = await import('./profile-record.js');
          await announceFallback(this, settings, reason, filePath);
        },
      });
    } catch (error) {
      const { storeUnreachable } = await import('./profile-record.js');
      throw storeUnreachable(error, settings);
    }
  }
}
