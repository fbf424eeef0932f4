/**
 * What CMD finds in its environment (exec-child.ts), and that exec's help, and so the reference and
 * the man page made from it, names each variable exec adds or removes.
 */
import { describe, expect, test } from 'vitest';
import { commandEnvironment } from '../../../../src/cli/commands/exec/exec-child.js';
import { execCommand } from '../../../../src/cli/commands/exec/exec-command.js';
import type { TokenRecord } from '../../../../src/store/types.js';

const record: TokenRecord = {
  base_url: 'https://docs.example.test',
  client_id: 'client-1',
  access_token: 'access-1',
  token_type: 'Bearer',
  expires_at: '2026-11-26T23:00:00.000Z',
  grant: 'client_credentials',
  obtained_at: '2026-11-26T22:00:00.000Z',
};
const service = { baseUrl: 'https://docs.example.test', clientId: 'client-1' };
const parent = {
  PATH: '/usr/bin',
  TOKENCLI_PASSWORD: 'password-1',
  TOKENCLI_CLIENT_SECRET: 'secret-1',
  TOKENCLI_ACCESS_TOKEN: 'an older token',
};

describe("exec: the command's environment", () => {
  const env = commandEnvironment(parent, record, service);

  test('holds the token and the service, keeps the rest, and drops the secrets', () => {
    expect(env).toEqual({
      PATH: '/usr/bin',
      TOKENCLI_ACCESS_TOKEN: 'access-1',
      TOKENCLI_TOKEN_EXPIRES_AT: '2026-11-26T23:00:00.000Z',
      TOKENCLI_BASE_URL: 'https://docs.example.test',
      TOKENCLI_CLIENT_ID: 'client-1',
    });
  });

  test("exec's help names every variable it sets or withholds", () => {
    const changed = Object.keys({ ...parent, ...env }).filter(
      (name) => env[name] !== parent[name as keyof typeof parent],
    );
    expect(changed.length).toBeGreaterThan(0);
    for (const name of changed) expect(execCommand.notes).toMatch(new RegExp(`\\b${name}\\b`));
  });
});
