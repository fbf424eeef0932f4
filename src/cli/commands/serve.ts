/**
 * `tokencli serve` (SPEC.md §3): runs the local token service until SIGINT or SIGTERM. stdout gets
 * one JSON line with the base URL once it listens (scripts wait for it); stderr gets the demo
 * credentials and one line per request.
 */
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../context.js';

export interface ServeOptions {
  host: string;
  port: string;
  config?: string;
  allowHost?: string[];
}

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

export async function run(options: ServeOptions, ctx: CommandContext): Promise<void> {
  const port = parsePort(options.port);
  // Loaded here, not at the top: the service is only paid for by the command that runs it.
  const { loadServiceConfig, startTokenService, writeDemoSigningKey } = await import('../../server/index.js');
  // Without --config: the demo configuration, with an SSO connection whose key is generated now.
  const config = options.config === undefined ? undefined : await loadServiceConfig(options.config);
  const { stdout, stderr } = ctx.io;

  const service = await startTokenService(config, {
    host: options.host,
    port,
    allowHosts: options.allowHost ?? [],
    log: (line) => stderr.write(`${line}\n`),
  });

  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  process.once('SIGTERM', stop);
  ctx.signal.addEventListener('abort', stop, { once: true });
  if (ctx.signal.aborted) stop();

  let keyFile: { path: string; remove(): Promise<void> } | undefined;
  try {
    if (options.config === undefined) {
      const app = service.config.apps[0];
      const user = service.config.users[0];
      if (app && user) {
        stderr.write(
          'demo configuration (public test credentials; pass --config FILE for your own):\n' +
            `  client_id=${app.client_id} client_secret=${app.client_secret} redirect_uri=${app.redirect_uris[0]}\n` +
            `  email=${user.email} password=${user.password}\n`,
        );
      }
    }
    stdout.write(`${JSON.stringify({ base_url: service.baseUrl })}\n`);
    if (service.demoSso) {
      // The key pair is generated while the service already listens; this line follows it.
      const sso = await service.demoSso;
      keyFile = await writeDemoSigningKey(sso.samlPrivateKeyPem);
      stderr.write(
        `  SSO: TOKENCLI_CLIENT_SECRET=${shellWord(service.config.apps[0]?.client_secret ?? '')} tokencli sso` +
          ` --base-url ${shellWord(service.baseUrl)} --client-id ${shellWord(sso.clientId)}` +
          ` --assertion-for ${shellWord(sso.email)} --issuer ${shellWord(sso.issuer)}` +
          ` --sign-key ${shellWord(keyFile.path)}\n` +
          "       (the demo identity provider's signing key; removed when the service stops)\n",
      );
    }
    await stopped;
  } finally {
    process.off('SIGTERM', stop);
    ctx.signal.removeEventListener('abort', stop);
    await service.close();
    await keyFile?.remove();
  }
}

/** A word for a POSIX shell: as it is when plain, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
