/**
 * The registered applications and users, indexed for lookups, with their secrets kept only as
 * digests. Users also carry the little session state the concurrent-session rule needs.
 */

import { emailKey, lookupEmailKey } from '../text/email-identity.js';
import {
  type AppConfig,
  type GrantName,
  PLATFORM_TOKEN_TYPE,
  type SamlConfig,
  type ServiceConfig,
} from './config.js';
import { type AppJson, appJson } from './grants/answer-json.js';
import type { GrantHandler } from './grants/grant.js';
import { GRANT_HANDLERS } from './grants/index.js';
import { digest, matchesDigest } from './secrets.js';

/** A registered application as the handlers use it. */
export interface AppEntry {
  readonly clientId: string;
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly grants: ReadonlySet<GrantName>;
  /** The handlers of the enabled grants by `grant_type`: one lookup per token request. */
  readonly grantHandlers: ReadonlyMap<string, GrantHandler>;
  /** `token_type` of its token and tokeninfo answers. */
  readonly tokenType: string;
  /** Issue refresh tokens in the authorization-code flow (docs/contract.md §1 rule 2). */
  readonly refreshTokens: boolean;
  readonly config: AppConfig;
  readonly secretDigest: Buffer;
  /** Its fields of the token and tokeninfo answers, serialised once (grants/answer-json.ts). */
  readonly json: AppJson;
}

/** A user, plus the session state of docs/contract.md §1 rule 10. */
export interface UserEntry {
  readonly email: string;
  readonly singleSession: boolean;
  readonly passwordDigest: Buffer;
  /** The email as a JSON string, for the token and tokeninfo answers (grants/answer-json.ts). */
  readonly emailJson: string;
  /**
   * Bumped when the user's sessions are ended (`endOtherSessions=True`): every token records the
   * generation it was issued in and is revoked once that is no longer current. O(1) revocation,
   * and no per-user list of tokens to keep.
   */
  generation: number;
  /** When the last token (access or refresh) of the current generation expires: a live session exists before then. */
  liveUntil: number;
}

/** How many presented spellings of emails `user` remembers. */
const MAX_SPELLINGS = 256;

export class Registry {
  readonly #apps = new Map<string, AppEntry>();
  readonly #users = new Map<string, UserEntry>();
  /**
   * Users by the email as presented, for the spellings seen so far: the identity rule's regular
   * expressions then run once per spelling instead of once per token request. Capped, so a client
   * sending ever new spellings cannot grow it.
   */
  readonly #bySpelling = new Map<string, UserEntry | null>();
  /** Compared against for unknown emails, so they take as long as wrong passwords. */
  readonly #decoy = digest('tokencli decoy password');

  constructor(config: ServiceConfig) {
    for (const app of config.apps) {
      const tokenType = app.token_type ?? PLATFORM_TOKEN_TYPE;
      this.#apps.set(app.client_id, {
        clientId: app.client_id,
        name: app.app_name,
        redirectUris: app.redirect_uris,
        grants: new Set(app.grants),
        grantHandlers: new Map(app.grants.map((name) => [name, GRANT_HANDLERS[name]])),
        tokenType,
        refreshTokens: app.refresh_tokens,
        config: app,
        secretDigest: digest(app.client_secret),
        json: appJson(tokenType, app.redirect_uris[0], app.app_name),
      });
    }
    for (const user of config.users) {
      this.#users.set(emailKey(user.email), {
        email: user.email,
        singleSession: user.single_session,
        passwordDigest: digest(user.password),
        emailJson: JSON.stringify(user.email),
        generation: 0,
        liveUntil: 0,
      });
    }
  }

  app(clientId: string): AppEntry | undefined {
    return this.#apps.get(clientId);
  }

  /** Constant-time check of a client secret (docs/contract.md §3). */
  clientSecretMatches(app: AppEntry, secret: string): boolean {
    return matchesDigest(secret, app.secretDigest);
  }

  /**
   * The user with this email and password, or undefined. Emails match by the one identity rule of
   * text/email-identity.ts (ASCII case only); a spelling with a forbidden character matches no one.
   */
  authenticateUser(email: string, password: string): UserEntry | undefined {
    const user = this.user(email);
    const matches = matchesDigest(password, user ? user.passwordDigest : this.#decoy);
    return user && matches ? user : undefined;
  }

  /**
   * Sets up the SSO connection of a registered application after start: the demo configuration's
   * identity-provider key is generated while the service already listens (see demo-sso.ts).
   *
   * @throws TypeError for an unknown client id
   */
  connectSaml(clientId: string, saml: SamlConfig): void {
    const app = this.#apps.get(clientId);
    if (!app) throw new TypeError(`connectSaml: no application ${JSON.stringify(clientId)}`);
    app.config.saml = saml;
  }

  /**
   * Looks a user up by email without a password (an SSO assertion already vouches for them), by
   * the same identity rule as `authenticateUser`.
   */
  user(email: string): UserEntry | undefined {
    const seen = this.#bySpelling.get(email);
    if (seen !== undefined) return seen ?? undefined;
    const key = lookupEmailKey(email);
    const user = key === undefined ? undefined : this.#users.get(key);
    if (this.#bySpelling.size < MAX_SPELLINGS) this.#bySpelling.set(email, user ?? null);
    return user;
  }
}
