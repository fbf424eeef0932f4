/**
 * `tokencli info`: the token information of the stored (or piped) access token. Exit 0 only when
 * the token is approved and unexpired (SPEC.md §2.6).
 */
import { ExitCode, NotLoggedInError, TokencliError } from '../../errors.js';
import type { TokenRecord } from '../../store/types.js';
import type { Deps } from '../deps.js';
import { maskToken } from '../format.js';
import { renderInfoTable } from '../info-table.js';
import { colorEnabled } from '../io.js';
import { readStdinSecret } from '../secrets.js';
import { droppedHint, dropRefusedAccessToken, refusesAccessToken } from '../stale-token.js';
import { recordMatches } from '../token-record.js';

/** `info --json` masks the tokens like the table unless `--show-tokens` (SPEC.md §2.6). */
function maskInfo<T extends object>(info: T, showTokens: boolean): T {
  if (showTokens) return info;
  const masked = { ...info } as Record<string, unknown>;
  for (const key of ['access_token', 'refresh_token']) {
    if (typeof masked[key] === 'string') masked[key] = maskToken(masked[key] as string);
  }
  return masked as T;
}

export interface InfoOptions {
  tokenStdin?: boolean;
  showTokens?: boolean;
  json?: boolean;
}

export async function run(options: InfoOptions, deps: Deps): Promise<void> {
  const settings = await deps.settings();
  const service = await deps.service();
  let accessToken: string;
  let cached: TokenRecord | undefined;
  if (options.tokenStdin) {
    accessToken = (await readStdinSecret(deps, 'access token', '--token-stdin')).trim();
  } else {
    const store = await deps.store();
    const record = await store.getTokens(settings.profile);
    if (record !== undefined && !recordMatches(record, service.baseUrl, service.clientId)) {
      // Say what differs (e.g. localhost vs 127.0.0.1), not just "nothing stored" (issue 9).
      const { noUsableToken } = await import('../token-state.js');
      throw noUsableToken({
        profile: settings.profile,
        stored: record,
        service,
        minTtlSeconds: 0,
        force: false,
        now: deps.now(),
      });
    }
    if (!recordMatches(record, service.baseUrl, service.clientId)) {
      throw new NotLoggedInError(
        `no access token stored for profile "${settings.profile}"`,
        'run `tokencli login` or `tokencli token`, or pipe a token in with --token-stdin',
      );
    }
    accessToken = record.access_token;
    cached = record;
  }

  const { fetchTokenInfo } = await import('../../oauth/tokeninfo.js');
  let info: Awaited<ReturnType<typeof fetchTokenInfo>>;
  try {
    info = await fetchTokenInfo(await deps.client(), accessToken, { signal: deps.signal });
  } catch (error) {
    if (cached === undefined || !refusesAccessToken(error)) throw error;
    const canRenew = await dropRefusedAccessToken(deps, cached);
    const refused = error as TokencliError;
    throw new TokencliError(refused.message, {
      exitCode: refused.exitCode,
      code: refused.code,
      reason: 'access_token_refused',
      hint: droppedHint(canRenew),
      cause: error,
    });
  }

  if (options.json) {
    deps.io.stdout.write(`${JSON.stringify(maskInfo(info, options.showTokens === true), null, 2)}\n`);
  } else {
    const color = colorEnabled(deps.io, 'stdout', !deps.globals.color);
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: color ? 1 : 0 });
    const paint = { ok: chalk.green, bad: chalk.red, dim: chalk.dim };
    deps.io.stdout.write(
      `${renderInfoTable(info, { showTokens: options.showTokens === true, now: deps.now(), paint })}\n`,
    );
  }

  const expired = typeof info.expires_in === 'number' && info.expires_in <= 0;
  if (info.status !== 'approved' || expired) {
    throw new TokencliError(
      expired
        ? 'the token has expired'
        : `the token is not approved (status: ${String(info.status ?? 'missing')})`,
      {
        exitCode: ExitCode.refused,
        hint: options.tokenStdin
          ? 'get a new one with `tokencli token --force` or `tokencli login`'
          : expired
            ? 'get a new one with `tokencli token`'
            : 'get a new one with `tokencli token --force` or `tokencli login`',
      },
    );
  }
}
