import { describe, expect, it } from 'vitest';
import { parseTokenRecord } from '../../src/store/token-record-shape.js';
import { sampleRecord } from './records.js';

describe('parseTokenRecord', () => {
  it('accepts a full record and a minimal one, keeping only the known fields', () => {
    expect(parseTokenRecord(sampleRecord())).toEqual({ record: sampleRecord() });
    const minimal = sampleRecord();
    for (const key of ['refresh_token', 'refresh_token_expires_at', 'email', 'redirect_uri'] as const) {
      delete minimal[key];
    }
    expect(parseTokenRecord({ ...minimal, flags: [{ name: 'NEW' }] })).toEqual({ record: minimal });
  });

  it('keeps when the service refused the access token', () => {
    const refused = sampleRecord({ access_token_refused_at: '2030-01-01T00:30:00.000Z' });
    expect(parseTokenRecord(refused)).toEqual({ record: refused });
  });

  it.each([
    [null, 'the record is not an object'],
    ['text', 'the record is not an object'],
    [[sampleRecord()], 'the record is not an object'],
    [{ ...sampleRecord(), base_url: undefined }, '"base_url" is missing or not a string'],
    [{ ...sampleRecord(), client_id: 7 }, '"client_id" is missing or not a string'],
    [{ ...sampleRecord(), access_token: '' }, '"access_token" is missing or not a string'],
    [{ ...sampleRecord(), token_type: null }, '"token_type" is missing or not a string'],
    [{ ...sampleRecord(), expires_at: 'soon' }, '"expires_at" is missing or not a date'],
    [{ ...sampleRecord(), obtained_at: 1 }, '"obtained_at" is missing or not a date'],
    [{ ...sampleRecord(), grant: 'password' }, '"grant" is not a known grant'],
    [{ ...sampleRecord(), grant: 'cache' }, '"grant" is not a known grant'],
    [{ ...sampleRecord(), refresh_token: 5 }, '"refresh_token" is not a string'],
    [{ ...sampleRecord(), email: {} }, '"email" is not a string'],
    [{ ...sampleRecord(), redirect_uri: false }, '"redirect_uri" is not a string'],
    [{ ...sampleRecord(), refresh_token_expires_at: 'later' }, '"refresh_token_expires_at" is not a date'],
    [{ ...sampleRecord(), access_token_refused_at: true }, '"access_token_refused_at" is not a date'],
  ])('rejects %j: %s', (value, problem) => {
    expect(parseTokenRecord(value)).toEqual({ problem });
  });
});
