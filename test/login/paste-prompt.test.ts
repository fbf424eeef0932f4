import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { ExitCode, TokencliError } from '../../src/errors.js';
import { interpretPaste, waitForPastedCode } from '../../src/login/paste-prompt.js';

const STATE = 'the-state-of-this-login';

describe('interpretPaste', () => {
  test.each([
    [`http://127.0.0.1:8765/callback?code=abc123&state=${STATE}`, 'abc123'],
    [`  http://localhost:1/cb?state=${STATE}&code=a%2Fb  `, 'a/b'],
    [`?code=xyz&state=${STATE}`, 'xyz'],
    [`code=xyz&state=${STATE}`, 'xyz'],
    ['bare-code_0123.~', 'bare-code_0123.~'],
  ])('%s gives the code', (line, code) => {
    expect(interpretPaste(line, STATE)).toEqual({ kind: 'code', code });
  });

  test.each([
    ['http://127.0.0.1:8765/callback?code=abc123&state=other'],
    ['http://127.0.0.1:8765/callback?code=abc123'],
    ['?code=abc123'],
  ])('%s is another login: wrong state', (line) => {
    expect(interpretPaste(line, STATE)).toEqual({ kind: 'wrong-state' });
  });

  test('an error redirect with the right state ends the flow like the listener would', () => {
    const denied = interpretPaste(`http://127.0.0.1:1/cb?state=${STATE}&error=access_denied`, STATE);
    expect(denied.kind).toBe('error');
    expect(denied.kind === 'error' && exitCodeOf(denied.error)).toBe(ExitCode.loginIncomplete);
    const other = interpretPaste(`?state=${STATE}&error=server_error&error_description=boom`, STATE);
    expect(other.kind === 'error' && other.error.message).toBe(
      'the service refused the authorization request (server_error: boom)',
    );
  });

  test.each([
    ['', { kind: 'empty' }],
    ['   ', { kind: 'empty' }],
    ['two words', { kind: 'invalid', reason: 'that is neither a URL nor a code' }],
    ['http://[bad/cb?code=1', { kind: 'invalid', reason: 'that is not a valid URL' }],
  ])('%j is not accepted', (line, outcome) => {
    expect(interpretPaste(line, STATE)).toEqual(outcome);
  });
});

describe('waitForPastedCode', () => {
  test('skips bad lines with a warning and resolves with the first good one', async () => {
    const input = new PassThrough();
    const warnings: string[] = [];
    const controller = new AbortController();
    const code = waitForPastedCode({
      input,
      expectedState: STATE,
      warn: (l) => warnings.push(l),
      signal: controller.signal,
    });
    input.write('\n');
    input.write('not a code\n');
    input.write('http://127.0.0.1:8765/callback?code=old&state=stale\n');
    input.write(`http://127.0.0.1:8765/callback?code=fresh&state=${STATE}\r\n`);
    expect(await code).toBe('fresh');
    expect(warnings).toEqual([
      "that is neither a URL nor a code; paste the whole URL from the browser's address bar, or the code",
      'that URL does not carry the state of this login; paste the URL of the tab this login opened',
    ]);
    expect(input.isPaused()).toBe(true);
  });

  test('rejects with the flow error for error=access_denied', async () => {
    const input = new PassThrough();
    const result = waitForPastedCode({
      input,
      expectedState: STATE,
      warn: () => {},
      signal: new AbortController().signal,
    }).catch((e: unknown) => e);
    input.write(`?state=${STATE}&error=access_denied\n`);
    const error = (await result) as TokencliError;
    expect(error).toBeInstanceOf(TokencliError);
    expect(exitCodeOf(error)).toBe(ExitCode.loginIncomplete);
  });

  test('abort stops reading and lets go of the input', async () => {
    const input = new PassThrough();
    const controller = new AbortController();
    let settled = false;
    void waitForPastedCode({
      input,
      expectedState: STATE,
      warn: () => {},
      signal: controller.signal,
    }).finally(() => {
      settled = true;
    });
    controller.abort();
    input.write('late-code\n');
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    expect(input.isPaused()).toBe(true);
    expect(input.listenerCount('data')).toBe(0);
  });
});
