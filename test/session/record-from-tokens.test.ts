/**
 * The stored record made from a token response (docs/contract.md §2.7): a response without a
 * refresh token (a refresh) keeps the previous one with its expiry, and the previous email and
 * redirect URI; a response with one replaces it.
 */
import { describe, expect, it } from 'vitest';
import type { TokenSet } from '../../src/oauth/types.js';
import { toRecord } from '../../src/session/record-from-tokens.js';
import { sampleRecord } from '../store/records.js';

const SERVICE = { baseUrl: 'http://127.0.0.1:8080', clientId: 'demo-client' };
const SERVICE_FIELDS = { base_url: SERVICE.baseUrl, client_id: SERVICE.clientId };
const NOW = new Date('2030-02-01T00:00:00.000Z');
const RESPONSE: TokenSet = {
  access_token: 'new-access',
  token_type: 'BearerToken',
  expires_in: 3600,
  expires_at: '2030-02-01T01:00:00.000Z',
};

describe('toRecord', () => {
  it('keeps the previous refresh token, its expiry, email and redirect URI when the response has none', () => {
    const previous = sampleRecord();
    expect(toRecord(RESPONSE, { ...SERVICE, grant: 'refresh_token', now: NOW, previous })).toEqual({
      ...SERVICE_FIELDS,
      access_token: 'new-access',
      token_type: 'BearerToken',
      expires_at: '2030-02-01T01:00:00.000Z',
      grant: 'refresh_token',
      obtained_at: NOW.toISOString(),
      refresh_token: previous.refresh_token,
      refresh_token_expires_at: previous.refresh_token_expires_at,
      email: previous.email,
      redirect_uri: previous.redirect_uri,
    });
  });

  it('takes a new refresh token with its own expiry, or none, never the old expiry with it', () => {
    const previous = sampleRecord();
    const withNew = { ...RESPONSE, refresh_token: 'new-refresh', email: 'new@example.com' };
    expect(toRecord(withNew, { ...SERVICE, grant: 'authorization_code', now: NOW, previous })).toMatchObject({
      refresh_token: 'new-refresh',
      email: 'new@example.com',
    });
    expect(
      toRecord(withNew, { ...SERVICE, grant: 'authorization_code', now: NOW, previous }),
    ).not.toHaveProperty('refresh_token_expires_at');
    const dated = { ...withNew, refresh_token_expires_at: '2030-03-01T00:00:00.000Z' };
    expect(toRecord(dated, { ...SERVICE, grant: 'authorization_code', now: NOW })).toMatchObject({
      refresh_token_expires_at: '2030-03-01T00:00:00.000Z',
    });
  });

  it('has no refresh token, email or redirect URI that neither gave', () => {
    const record = toRecord(RESPONSE, { ...SERVICE, grant: 'client_credentials', now: NOW });
    expect(Object.keys(record).sort()).toEqual([
      'access_token',
      'base_url',
      'client_id',
      'expires_at',
      'grant',
      'obtained_at',
      'token_type',
    ]);
  });
});
