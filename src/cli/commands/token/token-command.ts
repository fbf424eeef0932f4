/**
 * `tokencli token`: its flags, options, help and examples, its run function (token.ts, loaded
 * when it runs) and its light answer (a cached token, launcher/light-token.ts).
 */
import type { CommandDef } from '../../command-model/types.js';
import { GET_TOKEN_FLAGS, type TokenFlags } from './get-token-flags.js';

/** What `--format` prints (token-formats.ts renders each). */
export const TOKEN_FORMATS = ['token', 'header', 'json', 'env'] as const;

export interface TokenOptions extends TokenFlags {
  json?: boolean;
  /** One of TOKEN_FORMATS (output/token-formats.ts renders each). */
  format?: string;
  /** Refresh tokens unmasked in the JSON (docs/contract.md §2.6). */
  showTokens?: boolean;
}

export const tokenCommand: CommandDef = {
  name: 'token',
  run: async () => (await import('./token.js')).run,
  light: 'light-token',
  description: 'print a valid access token (cache, then refresh, then client credentials)',
  flags: [
    ...GET_TOKEN_FLAGS,
    {
      long: '--format',
      value: '<format>',
      description: 'print the token, an Authorization header, JSON, or shell variables',
      choices: TOKEN_FORMATS,
      // Shown in help only: with no value given, `--json` may still choose json.
      defaultShown: 'token',
    },
    { long: '--json', description: 'print the token and its details as JSON (same as --format json)' },
    { long: '--show-tokens', description: 'show the refresh token unmasked in the JSON' },
  ],
  examples: [
    'curl -H "Authorization: Bearer $(tokencli token)" https://api.example.com/v2/…',
    'tokencli token --format header | curl -H @- https://api.example.com/v2/…',
    'eval "$(tokencli token --format env)"',
    'TOKENCLI_PASSWORD=… tokencli token --email ci@example.com --store none',
    'tokencli token --json | jq -r .expires_at',
  ],
};
