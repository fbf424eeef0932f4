import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { hintFor } from '../../src/cli/output/error-hints.js';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { ExitCode, InputError, TokencliError } from '../../src/errors.js';
import { type AuthorizationGrant, type LoginFlowDeps, runLoginFlow } from '../../src/login/login-flow.js';
import { s256Challenge } from '../../src/protocol/pkce.js';
import { rawGet } from './http-get.js';

const settings = {
  baseUrl: 'https://gw.example/api',
  clientId: 'demo-client',
  redirectUri: 'http://127.0.0.1:0/callback',
  timeoutMs: 20_000,
};

/** Records what the flow says, and hands out the authorize URL once it is printed. */
function harness(extra: Partial<LoginFlowDeps> = {}) {
  const info: string[] = [];
  const warnings: string[] = [];
  let gotUrl: (url: URL) => void = () => {};
  const authorizeUrl = new Promise<URL>((r) => {
    gotUrl = r;
  });
  const controller = new AbortController();
  const deps: LoginFlowDeps = {
    showUrl: (url) => gotUrl(new URL(url)),
    info: (line) => info.push(line),
    warn: (line) => warnings.push(line),
    signal: controller.signal,
    ...extra,
  };
  return { info, warnings, authorizeUrl, controller, deps };
}

/** What the service would do after a successful login: send the browser to the redirect URI. */
async function redirectBrowser(authorizeUrl: URL, query: Record<string, string>) {
  const redirect = new URL(authorizeUrl.searchParams.get('redirect_uri') ?? '');
  for (const [k, v] of Object.entries(query)) redirect.searchParams.set(k, v);
  return rawGet(Number(redirect.port), `${redirect.pathname}${redirect.search}`);
}

describe('runLoginFlow', () => {
  test('prints the URL, catches the code, exchanges it at once with the verifier, then answers the tab', async () => {
    const h = harness();
    const grants: AuthorizationGrant[] = [];
    const flow = runLoginFlow(
      { ...settings, scope: 'demoservices', endOtherSessions: true },
      h.deps,
      async (grant) => {
        grants.push(grant);
        return { result: 'tokens', summary: 'You are logged in as demo@example.com.' };
      },
    );
    const url = await h.authorizeUrl;
    expect(`${url.origin}${url.pathname}`).toBe('https://gw.example/api/v2/oauth/authorize');
    expect(url.searchParams.get('scope')).toBe('demoservices');
    expect(url.searchParams.get('endOtherSessions')).toBe('True');
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/callback$/);

    const page = await redirectBrowser(url, { code: 'the-code', state: url.searchParams.get('state') ?? '' });
    expect(await flow).toBe('tokens');
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({ code: 'the-code', redirect_uri: redirectUri });
    expect(s256Challenge(grants[0]?.code_verifier ?? '')).toBe(url.searchParams.get('code_challenge'));
    expect(page.status).toBe(200);
    expect(page.body).toContain('You are logged in as demo@example.com.');
    expect(h.info).toContain('Open this URL in a browser to log in:');
    expect(h.warnings).toEqual([]);
    // The listener is gone once the flow returned.
    const port = Number(new URL(redirectUri).port);
    expect(await rawGet(port, '/callback').catch((e: NodeJS.ErrnoException) => e.code)).toBe('ECONNREFUSED');
  });

  test('a failed exchange tells the tab and passes the error on', async () => {
    const h = harness();
    const refused = new TokencliError('invalid code', { code: 'service_refused' });
    const flow = runLoginFlow(settings, h.deps, async () => {
      throw refused;
    }).catch((e: unknown) => e);
    const url = await h.authorizeUrl;
    const page = await redirectBrowser(url, { code: 'c', state: url.searchParams.get('state') ?? '' });
    expect(await flow).toBe(refused);
    expect(page.status).toBe(500);
    expect(page.body).toContain('exchanging the code for tokens failed');
  });

  test('a stray redirect is reported and the flow keeps waiting', async () => {
    const h = harness();
    const flow = runLoginFlow(settings, h.deps, async (g) => ({ result: g.code, summary: '' }));
    const url = await h.authorizeUrl;
    expect((await redirectBrowser(url, { code: 'forged', state: 'guess' })).status).toBe(400);
    await redirectBrowser(url, { code: 'real', state: url.searchParams.get('state') ?? '' });
    expect(await flow).toBe('real');
    expect(h.warnings).toEqual([
      'ignored a redirect without the state of this login (an old tab, or a forged request); still waiting',
    ]);
  });

  test('access_denied ends it with exit 6 and never calls the exchange', async () => {
    const h = harness();
    let exchanged = false;
    const flow = runLoginFlow(settings, h.deps, async () => {
      exchanged = true;
      return { result: '', summary: '' };
    }).catch((e: unknown) => e);
    const url = await h.authorizeUrl;
    await redirectBrowser(url, { error: 'access_denied', state: url.searchParams.get('state') ?? '' });
    const error = (await flow) as TokencliError;
    expect(exitCodeOf(error)).toBe(ExitCode.loginIncomplete);
    expect(exchanged).toBe(false);
  });

  test('times out with exit 6 and closes the listener', async () => {
    const h = harness();
    const flow = runLoginFlow({ ...settings, timeoutMs: 300 }, h.deps, async () => ({
      result: '',
      summary: '',
    }));
    const error = (await flow.catch((e: unknown) => e)) as TokencliError;
    expect(error).toBeInstanceOf(TokencliError);
    expect(exitCodeOf(error)).toBe(ExitCode.loginIncomplete);
    expect(error.message).toBe('timed out after 0.3 s waiting for the login to finish in the browser');
    expect(hintFor(error)).toContain('--timeout-login');
    const port = Number(new URL((await h.authorizeUrl).searchParams.get('redirect_uri') ?? '').port);
    expect(await rawGet(port, '/callback').catch((e: NodeJS.ErrnoException) => e.code)).toBe('ECONNREFUSED');
  });

  test('Ctrl-C (the abort signal) stops waiting with its reason and closes the listener', async () => {
    const h = harness();
    const reason = new TokencliError('interrupted', { code: 'interrupted' });
    const flow = runLoginFlow(settings, h.deps, async () => ({ result: '', summary: '' })).catch(
      (e: unknown) => e,
    );
    const url = await h.authorizeUrl;
    h.controller.abort(reason);
    expect(await flow).toBe(reason);
    const port = Number(new URL(url.searchParams.get('redirect_uri') ?? '').port);
    expect(await rawGet(port, '/callback').catch((e: NodeJS.ErrnoException) => e.code)).toBe('ECONNREFUSED');
  });

  test('a bad redirect URI is a usage error before anything is printed', async () => {
    const h = harness();
    const error = await runLoginFlow(
      { ...settings, redirectUri: 'http://0.0.0.0:0/cb' },
      h.deps,
      async () => ({
        result: '',
        summary: '',
      }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(h.info).toEqual([]);
  });

  test('a pasted redirect URL wins over the listener, and the listener closes', async () => {
    const pasteInput = new PassThrough();
    const h = harness({ pasteInput });
    const flow = runLoginFlow(settings, h.deps, async (g) => ({ result: g.code, summary: '' }));
    const url = await h.authorizeUrl;
    const state = url.searchParams.get('state') ?? '';
    pasteInput.write(`${url.searchParams.get('redirect_uri')}?code=pasted&state=${state}\n`);
    expect(await flow).toBe('pasted');
    expect(h.info).toContain(
      'If the browser is on another machine, paste the URL it ends up on (or the code) here at once; codes expire after 20 seconds:',
    );
    const port = Number(new URL(url.searchParams.get('redirect_uri') ?? '').port);
    expect(await rawGet(port, '/callback').catch((e: NodeJS.ErrnoException) => e.code)).toBe('ECONNREFUSED');
  });

  test('when the listener wins, the paste prompt lets go of stdin', async () => {
    const pasteInput = new PassThrough();
    const h = harness({ pasteInput });
    const flow = runLoginFlow(settings, h.deps, async (g) => ({ result: g.code, summary: '' }));
    const url = await h.authorizeUrl;
    await redirectBrowser(url, { code: 'from-browser', state: url.searchParams.get('state') ?? '' });
    expect(await flow).toBe('from-browser');
    expect(pasteInput.isPaused()).toBe(true);
  });

  test('the browser is opened with the printed URL; a failure to open only warns', async () => {
    const opened: string[] = [];
    const h = harness({
      openBrowser: async (u) => {
        opened.push(u);
        throw new Error('no browser here');
      },
    });
    const flow = runLoginFlow(settings, h.deps, async (g) => ({ result: g.code, summary: '' }));
    const url = await h.authorizeUrl;
    await redirectBrowser(url, { code: 'ok', state: url.searchParams.get('state') ?? '' });
    expect(await flow).toBe('ok');
    expect(opened).toEqual([url.href]);
    expect(h.warnings).toEqual(['could not open a browser: Error: no browser here']);
  });
});
