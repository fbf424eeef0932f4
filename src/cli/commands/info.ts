/**
 * `tokencli info`: the token information of the stored (or piped) access token. Exit 0 only when
 * the token is approved and unexpired (SPEC.md §2.6).
 */
import { ExitCode, NotLoggedInError, TokencliError } from '../../errors.js';
import type { CommandContext } from '../context.js';
import { renderInfoTable } from '../info-table.js';
import { colorEnabled } from '../io.js';
import { readStdinSecret } from '../secrets.js';
import { httpSettings, openCredentialStore } from '../service.js';
import { requireService, resolveSettings } from '../settings.js';
import { recordMatches } from '../token-record.js';

export interface InfoOptions {
  tokenStdin?: boolean;
  showTokens?: boolean;
  json?: boolean;
}

export async function run(options: InfoOptions, ctx: CommandContext): Promise<void> {
  const settings = await resolveSettings(ctx);
  const service = requireService(settings);
  let accessToken: string;
  if (options.tokenStdin) {
    accessToken = (await readStdinSecret(ctx, 'access token', '--token-stdin')).trim();
  } else {
    const store = await openCredentialStore(settings, ctx);
    const record = await store.getTokens(settings.profile);
    if (!recordMatches(record, service.baseUrl, service.clientId)) {
      throw new NotLoggedInError(
        `no access token stored for profile "${settings.profile}"`,
        'run `tokencli login` or `tokencli token`, or pipe a token in with --token-stdin',
      );
    }
    accessToken = record.access_token;
  }

  const { fetchTokenInfo } = await import('../../oauth/tokeninfo.js');
  const info = await fetchTokenInfo(
    { baseUrl: service.baseUrl, clientId: service.clientId, http: httpSettings(settings, ctx) },
    accessToken,
    { signal: ctx.signal },
  );

  if (options.json) {
    ctx.io.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
  } else {
    const color = colorEnabled(ctx.io, 'stdout', !ctx.globals.color);
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: color ? 1 : 0 });
    const paint = { ok: chalk.green, bad: chalk.red, dim: chalk.dim };
    ctx.io.stdout.write(
      `${renderInfoTable(info, { showTokens: options.showTokens === true, now: new Date(), paint })}\n`,
    );
  }

  const expired = typeof info.expires_in === 'number' && info.expires_in <= 0;
  if (info.status !== 'approved' || expired) {
    throw new TokencliError(
      expired
        ? 'the token has expired'
        : `the token is not approved (status: ${String(info.status ?? 'missing')})`,
      { exitCode: ExitCode.refused, hint: 'get a new one with `tokencli token` or `tokencli login`' },
    );
  }
}
