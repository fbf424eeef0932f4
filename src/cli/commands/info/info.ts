/**
 * `tokencli info`: the token information of the stored (or piped) access token. Exit 0 only when
 * the token is approved and unexpired (docs/contract.md §2.6).
 */
import { TokencliError } from '../../../errors.js';
import type { TokenInfo } from '../../../oauth/types.js';
import { inspectToken } from '../../../session/inspect.js';
import type { Deps } from '../../deps.js';
import { colorEnabled } from '../../input/io.js';
import { readStdinSecret } from '../../input/secrets.js';
import { maskToken } from '../../output/format.js';
import { withOverrideHint } from '../../output/not-stored.js';
import { renderInfoTable } from './info-table.js';

/** `info --json` masks the tokens like the table unless `--show-tokens` (docs/contract.md §2.6). */
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
  const session = deps.session();
  let info: TokenInfo;
  if (options.tokenStdin) {
    await session.service();
    const accessToken = (await readStdinSecret(deps, 'access token', '--token-stdin')).trim();
    info = await inspectToken(session, accessToken);
  } else {
    const settings = await session.settings();
    info = await inspectToken(session).catch((error: unknown) => {
      throw withOverrideHint(error, settings);
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
        code: 'service_refused',
        hint: options.tokenStdin
          ? 'get a new one with `tokencli token --force` or `tokencli login`'
          : expired
            ? 'get a new one with `tokencli token`'
            : 'get a new one with `tokencli token --force` or `tokencli login`',
      },
    );
  }
}
