/**
 * `tokencli serve` (docs/contract.md §3): runs the local token service until SIGINT, SIGTERM or SIGHUP.
 * stdout gets one JSON line with the base URL once it listens (scripts wait for it); stderr gets
 * the demo credentials, a ready-to-paste sequence, and one line per request.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../../../errors.js';
import type { CommandContext } from '../../context.js';
import { readStdinSecret } from '../../input/secrets.js';
import { runningAsExecutable } from '../../single-executable.js';
import { invocation } from './invocation.js';
import { demoCredentialsText, demoSsoText, listeningNote } from './serve-text.js';

export interface ServeOptions {
  host: string;
  port: string;
  config?: string;
  allowHost?: string[];
  control?: boolean;
  controlTokenStdin?: boolean;
  /** Accepted by the parser only to be refused with the right way (docs/contract.md §2.1). */
  controlToken?: string;
}

/** A control token anyone could guess would make a network-wide control API an open door. */
const MIN_CONTROL_TOKEN_LENGTH = 16;

function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new UsageError(
      `invalid --port ${JSON.stringify(value)}`,
      'pass a port from 0 to 65535 (0 = any free port)',
    );
  }
  return port;
}

/**
 * The control token: from stdin or TOKENCLI_CONTROL_TOKEN, never a flag value (docs/contract.md §2.1: it
 * would show in `ps` and the shell history).
 */
async function controlToken(options: ServeOptions, ctx: CommandContext): Promise<string | undefined> {
  if (options.controlToken !== undefined) {
    throw new UsageError(
      '--control-token takes no value on the command line: it would show in ps and the shell history',
      'pipe it in with --control-token-stdin, or set TOKENCLI_CONTROL_TOKEN',
    );
  }
  if (options.controlTokenStdin && !options.control) {
    throw new UsageError('--control-token-stdin needs --control', 'add --control to serve the control API');
  }
  if (!options.control) return undefined;
  const token = options.controlTokenStdin
    ? await readStdinSecret(ctx, 'control token', '--control-token-stdin')
    : process.env.TOKENCLI_CONTROL_TOKEN || undefined;
  // Printable ASCII only: it travels in an Authorization header.
  if (token !== undefined && (token.length < MIN_CONTROL_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token))) {
    throw new UsageError(
      `the control token must be at least ${MIN_CONTROL_TOKEN_LENGTH} printable ASCII characters without spaces`,
      'make one with: openssl rand -hex 32',
    );
  }
  return token;
}

export async function run(options: ServeOptions, ctx: CommandContext): Promise<void> {
  const port = parsePort(options.port);
  const token = await controlToken(options, ctx);
  // Loaded here, not at the top: the service is only paid for by the command that runs it.
  const [{ loadServiceConfig, startTokenService, writeDemoSigningKey }, { lineBatch }] = await Promise.all([
    import('../../../server/index.js'),
    import('../../../server/http/line-batch.js'),
  ]);
  // Without --config: the demo configuration, with an SSO connection whose key is generated now.
  const config = options.config === undefined ? undefined : await loadServiceConfig(options.config);
  const { stdout, stderr } = ctx.io;
  // The request log: a line after a quiet spell at once, lines that come fast a few at a time.
  const requestLog = lineBatch((text) => stderr.write(text));

  const service = await startTokenService(config, {
    host: options.host,
    port,
    allowHosts: options.allowHost ?? [],
    log: requestLog.log,
    control: options.control === true,
    ...(token === undefined ? {} : { controlToken: token }),
  });
  // process.exit() (a closed stderr pipe, see io.ts) skips the finally below: no line is lost.
  process.once('exit', requestLog.flush);

  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  // SIGHUP too: a closed terminal must not leave the demo's private key behind.
  process.once('SIGTERM', stop);
  process.once('SIGHUP', stop);
  ctx.signal.addEventListener('abort', stop, { once: true });
  if (ctx.signal.aborted) stop();

  let keyFile: { path: string; remove(): Promise<void> } | undefined;
  const removeKeyNow = () => {
    if (keyFile) rmSync(dirname(keyFile.path), { recursive: true, force: true });
  };
  try {
    const demo = options.config === undefined;
    const note = listeningNote(options.host, service.baseUrl, demo);
    if (note) stderr.write(note);
    const cli = invocation({
      argv: process.argv,
      env: process.env,
      cwd: workingDirectory(),
      executable: runningAsExecutable() ? process.execPath : undefined,
    });
    // Before the demo lines: the SSO command, printed once its key exists, continues the try-it list.
    if (options.control) {
      stderr.write(
        `control API: ${service.baseUrl}/_control/ (clock, revoke, faults, state, reset)` +
          `${token === undefined ? '' : '; send the control token as Authorization: Bearer'}\n`,
      );
    }
    if (demo) {
      const app = service.config.apps[0];
      const user = service.config.users[0];
      if (app && user) {
        stderr.write(
          demoCredentialsText({
            cli,
            baseUrl: service.baseUrl,
            clientId: app.client_id,
            clientSecret: app.client_secret,
            redirectUri: app.redirect_uris[0] ?? '',
            email: user.email,
            password: user.password,
          }),
        );
      }
    }
    stdout.write(`${JSON.stringify({ base_url: service.baseUrl })}\n`);
    if (service.demoSso) {
      // The key pair is generated while the service already listens; this line follows it.
      const sso = await service.demoSso;
      keyFile = await writeDemoSigningKey(sso.samlPrivateKeyPem);
      // process.exit() skips the finally below (a closed stderr pipe exits at once, see io.ts).
      process.once('exit', removeKeyNow);
      requestLog.flush(); // requests answered before this line are logged before it
      stderr.write(
        demoSsoText({
          cli,
          baseUrl: service.baseUrl,
          clientId: sso.clientId,
          clientSecret: service.config.apps[0]?.client_secret ?? '',
          email: sso.email,
          issuer: sso.issuer,
          keyPath: keyFile.path,
        }),
      );
    }
    await stopped;
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGHUP', stop);
    ctx.signal.removeEventListener('abort', stop);
    await service.close();
    requestLog.flush();
    process.off('exit', requestLog.flush);
    process.off('exit', removeKeyNow);
    await keyFile?.remove();
  }
}

/** process.cwd(), or undefined where the directory was removed (node throws ENOENT then). */
function workingDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}
