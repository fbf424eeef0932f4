/** The embedded demo configuration `tokencli serve` runs without `--config` (SPEC.md §3). */
import type { ServiceConfig } from './config.js';
import { CONFIG_DEFAULTS } from './config.js';

/**
 * One application with every grant enabled and one user. Its credentials are public (printed by
 * `tokencli serve`); a fresh copy is returned so callers may change it.
 */
export function demoServiceConfig(): ServiceConfig {
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
      },
    ],
    users: [{ email: 'demo@example.com', password: 'demo-password', single_session: false }],
  };
}
