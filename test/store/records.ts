import type { TokenRecord } from '../../src/store/types.js';

/** A well-formed record; `overrides` change or add fields. */
export function sampleRecord(overrides: Partial<TokenRecord> = {}): TokenRecord {
  return {
    base_url: 'http://127.0.0.1:8080',
    client_id: 'demo-client',
    access_token: 'access-token-value',
    token_type: 'BearerToken',
    expires_at: '2030-01-01T01:00:00.000Z',
    refresh_token: 'refresh-token-value',
    refresh_token_expires_at: '2030-01-31T00:00:00.000Z',
    email: 'demo@example.com',
    redirect_uri: 'http://127.0.0.1:8765/callback',
    grant: 'authorization_code',
    obtained_at: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}
