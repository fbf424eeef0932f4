/** The embedded demo configuration `tokencli serve` runs without `--config` (docs/contract.md §3). */
import type { SamlConfig, ServiceConfig } from './config.js';
import { CONFIG_DEFAULTS } from './config.js';

/**
 * The entity ID of the demo identity provider. `.invalid` (RFC 2606 §2): it names no real host,
 * so nobody mistakes it for an identity provider to trust elsewhere.
 */
export const DEMO_SAML_ISSUER = 'https://idp.demo.tokencli.invalid';

/**
 * One application with every grant enabled and one user. Its credentials are public (printed by
 * `tokencli serve`); a fresh copy is returned so callers may change it.
 *
 * The application's SSO connection is `saml` when given, else none: the SAML grant then answers
 * that no SSO connection is set up. `startTokenService()` without a configuration connects a
 * freshly generated demo identity-provider key (see demo-sso.ts).
 */
export function demoServiceConfig(saml?: SamlConfig): ServiceConfig {
  return {
    ...CONFIG_DEFAULTS,
    apps: [
      {
        client_id: 'demo-client',
        client_secret: 'demo-secret',
        app_name: 'Demo App',
        redirect_uris: ['http://127.0.0.1:8765/callback'],
        grants: [
          'authorization_code',
          'client_credentials',
          'refresh_token',
          'urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
        ],
        refresh_tokens: true,
        ...(saml === undefined ? {} : { saml: { ...saml } }),
      },
    ],
    users: [{ email: 'demo@example.com', password: 'demo-password', single_session: false }],
  };
}
