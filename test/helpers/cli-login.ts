/**
 * Drives `tokencli login` as a child process for the end-to-end tests: reads the authorize URL
 * from its stderr while it waits, and can play the browser without one (the login form posted
 * with fetch, the redirect followed by hand) for the tests that are about the process, not the page.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { expect } from 'vitest';
import { CLI, type CliResult, cleanEnv, runCli, tempDir } from './cli.js';
import { clientEnv } from './client-env.js';

/** Any free port, no browser: the redirect URI most login tests use. */
export const ANY_PORT = ['--no-browser', '--redirect-uri', 'http://127.0.0.1:0/callback'];

/**
 * The browser-login environment against the demo service: no email or password, so nothing but
 * the login itself can yield a token.
 */
export function demoLoginEnv(baseUrl: string, configDir = tempDir()): Record<string, string> {
  return clientEnv(baseUrl, { id: 'demo-client', secret: 'demo-secret' }, configDir);
}

/** Nothing stored: `tokencli token` (no email or password around) finds nothing and exits 4. */
export async function expectNothingStored(env: Record<string, string>): Promise<void> {
  const r = await runCli(['token'], { env });
  expect(r.code).toBe(4);
}

export interface LoginProcess {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** The authorize URL, as soon as the CLI printed it. */
  authorizeUrl: Promise<URL>;
  done: Promise<CliResult>;
}

const URL_LINE = /^\s*(https?:\/\/\S+\/v2\/oauth\/authorize\?\S+)$/m;

export function startLogin(
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): LoginProcess {
  const [command, ...cliArgs] = CLI;
  const child = spawn(command, [...cliArgs, 'login', ...args], { env: cleanEnv(env), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  let foundUrl: (url: URL) => void = () => {};
  let noUrl: (error: Error) => void = () => {};
  const authorizeUrl = new Promise<URL>((resolve, reject) => {
    foundUrl = resolve;
    noUrl = reject;
  });
  authorizeUrl.catch(() => {});
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    const match = URL_LINE.exec(stderr);
    if (match?.[1]) foundUrl(new URL(match[1]));
  });
  child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      noUrl(
        new Error(`tokencli login exited (${code ?? signal}) without printing a URL; stderr:\n${stderr}`),
      );
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, stderr: () => stderr, authorizeUrl, done };
}

/** The listener's redirect URI as the authorize URL names it. */
export function redirectUriOf(authorizeUrl: URL): URL {
  return new URL(authorizeUrl.searchParams.get('redirect_uri') ?? '');
}

/** GETs the redirect URI with these parameters, as a browser sent there by the service would. */
export async function hitRedirect(authorizeUrl: URL, query: Record<string, string>): Promise<Response> {
  const target = redirectUriOf(authorizeUrl);
  for (const [k, v] of Object.entries(query)) target.searchParams.set(k, v);
  return fetch(target, { redirect: 'manual' });
}

/**
 * Plays the browser without one: posts the login form of `tokencli serve` with the authorize
 * request's parameters and follows the 302 to the listener. Returns the listener's page.
 */
export async function loginWithoutBrowser(
  authorizeUrl: URL,
  email: string,
  password: string,
): Promise<Response> {
  const form = new URLSearchParams(authorizeUrl.searchParams);
  form.set('email', email);
  form.set('password', password);
  const posted = await fetch(`${authorizeUrl.origin}${authorizeUrl.pathname}`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  const location = posted.headers.get('location');
  if (posted.status !== 302 || !location) {
    throw new Error(`the login form answered ${posted.status}: ${await posted.text()}`);
  }
  return fetch(location, { redirect: 'manual' });
}
