/**
 * Sessions of the demo client against `tokencli serve`'s service in-process on loopback, over one
 * config directory and the real file store in it; the sessions share the service's clock, so a
 * test moves both. Each call to `session()` is a new session, as a new run of the CLI would be.
 */
import { demoServiceConfig } from '../../src/server/index.js';
import type { SessionEvent } from '../../src/session/events.js';
import { givenSecrets } from '../../src/session/secret-source.js';
import { Session } from '../../src/session/session.js';
import type { TokenRecord } from '../../src/store/types.js';
import { demoClientEnv } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { DEMO, exchangeCode, obtainCode, startService } from '../server/helpers.js';

/** The demo app's secret and the demo user's password, given up front as the library gives them. */
export const SECRETS = givenSecrets({ clientSecret: DEMO.clientSecret, password: DEMO.password });

export async function serviceSession() {
  const requests: string[] = [];
  const service = await startService(demoServiceConfig(), { log: (line) => requests.push(line) });
  const configDir = tempDir('tokencli-session-');
  const events: SessionEvent[] = [];
  const session = ({ email }: { email?: string } = { email: DEMO.email }) =>
    new Session({
      env: demoClientEnv(service.baseUrl, configDir),
      email,
      now: () => new Date(service.clock.ms),
      onEvent: (event) => events.push(event),
    });
  const countRequests = (path: string) => requests.filter((l) => l.includes(` ${path} `)).length;
  const tokenRequests = () => countRequests('/v2/oauth/token');
  /** Stores a record of this service for the default profile, `record` changing its fields. */
  const store = async (record: Partial<TokenRecord> = {}): Promise<TokenRecord> => {
    const now = new Date(service.clock.ms);
    const stored: TokenRecord = {
      base_url: service.baseUrl,
      client_id: DEMO.clientId,
      access_token: 'stored-access-token',
      token_type: 'BearerToken',
      expires_at: new Date(now.getTime() + 3_600_000).toISOString(),
      grant: 'authorization_code',
      email: DEMO.email,
      obtained_at: now.toISOString(),
      ...record,
    };
    await (await session().store()).setTokens('default', stored);
    return stored;
  };
  /** A login's tokens from the service (authorization code), with a real refresh token. */
  const login = async () => {
    const { code } = await obtainCode(service.baseUrl);
    const body = (await exchangeCode(service.baseUrl, code)).body;
    return { accessToken: body.access_token as string, refreshToken: body.refresh_token as string };
  };
  return { service, configDir, session, events, countRequests, tokenRequests, store, login };
}
