/**
 * A release's download server for tests: the files of one directory over HTTP on 127.0.0.1 (what
 * TOKENCLI_DOWNLOAD_URL points at), and fake release directories with their SHA256SUMS; and a
 * CONNECT proxy and a TLS front, which install.sh's tests and the CLI's go through (each its own
 * process: tests that run a command with spawnSync block their own).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { tempDir } from './cli.js';

export interface ReleaseServer {
  url: string;
  /** Each request so far: its path and user agent, in order. */
  requests(): Array<{ path: string; userAgent: string }>;
  close(): Promise<void>;
}

/**
 * The server, run by node as its own process: the tests run install.sh and the action's steps
 * with spawnSync, which would block a server in the test's own process. It logs each request as
 * a JSON line to the file in argv[2] and prints its port. Given a name, a size and a second log
 * (argv[3] to argv[5]), it answers that name with a stream of that many bytes, without a
 * Content-Length, written as fast as the client takes them, and stops writing when the client goes
 * away; the second log gets a JSON line of how many bytes went out, once the stream is over.
 */
const SERVER = `
const { appendFileSync, readdirSync, readFileSync } = require('node:fs');
const { basename, join } = require('node:path');
const [dir, log, streamName, streamSize, streamLog] = process.argv.slice(1);
// Lines a checksum list could hold, for another release's file.
const chunk = Buffer.alloc(1 << 20, '0'.repeat(64) + '  tokencli-0.0.0-none.tar.gz\\n');
function stream(res) {
  const size = Number(streamSize);
  let sent = 0;
  const pump = () => {
    while (sent < size && !res.destroyed) {
      const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
      sent += part.length;
      // Full: 'drain' calls again once the client has read; a client gone away ('close') never does.
      if (!res.write(part)) return;
    }
    if (sent >= size) res.end();
  };
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  res.on('drain', pump).on('close', () => appendFileSync(streamLog, JSON.stringify({ sent }) + '\\n'));
  pump();
}
const server = require('node:http').createServer((req, res) => {
  const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
  appendFileSync(log, JSON.stringify({ path: '/' + name, userAgent: req.headers['user-agent'] ?? '' }) + '\\n');
  if (streamName && name === streamName) {
    stream(res);
    return;
  }
  if (name === '' || name !== basename(name) || !readdirSync(dir).includes(name)) {
    res.writeHead(404).end('not found\\n');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(join(dir, name)));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.resume().on('end', () => process.exit(0));
`;

/**
 * An HTTPS server (the key and certificate files given) over the release files of `dir` for the
 * redirect tests: `/files/<name>` serves the file; `/secure/<name>` redirects there (https to
 * https, as GitHub's release downloads do); `/plain/<name>` redirects to `plainUrl/<name>` (https
 * to plain http).
 */
const REDIRECT_SERVER = `
const { appendFileSync, readFileSync } = require('node:fs');
const [dir, log, key, cert, plainUrl] = process.argv.slice(1);
const server = require('node:https').createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
  const path = new URL(req.url ?? '/', 'https://x').pathname;
  appendFileSync(log, JSON.stringify({ path, userAgent: req.headers['user-agent'] ?? '' }) + '\\n');
  const [, kind, name] = /^\\/(files|secure|plain)\\/([A-Za-z0-9._-]+)$/.exec(path) ?? [];
  if (kind === 'secure') res.writeHead(302, { location: '/files/' + name }).end();
  else if (kind === 'plain') res.writeHead(302, { location: plainUrl + '/' + name }).end();
  else if (kind === 'files') {
    try {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(require('node:path').join(dir, name)));
    } catch {
      res.writeHead(404).end('not found\\n');
    }
  } else res.writeHead(404).end('not found\\n');
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.resume().on('end', () => process.exit(0));
`;

/**
 * A proxy for https: each CONNECT, whatever host it names, is tunnelled to that port on 127.0.0.1,
 * so that a name nothing resolves (release.invalid) is reached through it alone. It logs each
 * request as `CONNECT host:port` (or method and URL), and answers any but CONNECT 502. Given
 * `407` (argv[3]), it answers every CONNECT 407 Proxy Authentication Required instead.
 */
const CONNECT_PROXY = `
const { appendFileSync } = require('node:fs');
const net = require('node:net');
const [, log, mode] = process.argv.slice(1);
const logged = (req) =>
  appendFileSync(log, JSON.stringify({ path: req.method + ' ' + req.url, userAgent: req.headers['user-agent'] ?? '' }) + '\\n');
const server = require('node:http').createServer((req, res) => {
  logged(req);
  res.writeHead(502).end();
});
server.on('connect', (req, socket, head) => {
  logged(req);
  if (mode === '407') {
    socket.end('HTTP/1.1 407 Proxy Authentication Required\\r\\nProxy-Authenticate: Basic realm="corp"\\r\\nContent-Length: 0\\r\\n\\r\\n');
    return;
  }
  const upstream = net.connect(Number(new URL('http://' + req.url).port), '127.0.0.1', () => {
    socket.write('HTTP/1.1 200 Connection Established\\r\\n\\r\\n');
    upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.resume().on('end', () => process.exit(0));
`;

/**
 * A TLS front before a plain-http service on 127.0.0.1 (its port in argv[3]): TLS ends here, with
 * the key and certificate files in argv[4] and argv[5], and the bytes go on to the service as they
 * are. It logs nothing.
 */
const TLS_FRONT = `
const { readFileSync } = require('node:fs');
const { connect } = require('node:net');
const [, , servicePort, key, cert] = process.argv.slice(1);
const front = require('node:tls').createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (client) => {
  const service = connect(Number(servicePort), '127.0.0.1');
  client.pipe(service).pipe(client);
  client.on('error', () => service.destroy());
  service.on('error', () => client.destroy());
});
front.listen(0, '127.0.0.1', () => console.log(front.address().port));
process.stdin.resume().on('end', () => process.exit(0));
`;

/**
 * A server that answers every request 404 with a reason phrase that would retitle a terminal and
 * colour what follows, written by hand (node's http refuses to send one). It logs nothing.
 */
const HOSTILE_REASON_SERVER = `
const server = require('node:net').createServer((socket) => {
  socket.on('error', () => {});
  socket.once('data', () =>
    socket.end('HTTP/1.1 404 Not Found \\x1b]0;PWNED\\x07\\x1b[31mRED\\x1b[0m\\x01\\u009b31mC1\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n'),
  );
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.resume().on('end', () => process.exit(0));
`;

/** A server that answers every request with the status and reason given as its arguments. */
const STATUS_SERVER = `
const [status, reason] = process.argv.slice(-2);
const server = require('node:http').createServer((request, response) => {
  response.writeHead(Number(status), reason, { 'Content-Length': 0, Connection: 'close' }).end();
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.resume().on('end', () => process.exit(0));
`;

/** {@link STATUS_SERVER}: a download server whose every answer is `status` (410 Gone, say). */
export function serveStatus(status: number, reason: string): Promise<ReleaseServer> {
  return serverProcess(STATUS_SERVER, tempDir('tokencli-status-server-'), [String(status), reason], 'http');
}

/** {@link HOSTILE_REASON_SERVER}: a download server whose words are hostile to a terminal. */
export function serveHostileReason(): Promise<ReleaseServer> {
  return serverProcess(HOSTILE_REASON_SERVER, tempDir('tokencli-hostile-server-'), [], 'http');
}

/**
 * Runs a server script (above) over `dir` with node in its own process (`dir`, the request log,
 * then `more` as its arguments), and gives its URL once it listens.
 */
async function serverProcess(
  script: string,
  dir: string,
  more: string[],
  scheme: 'http' | 'https',
): Promise<ReleaseServer> {
  const log = join(tempDir('tokencli-release-server-'), 'requests.jsonl');
  writeFileSync(log, '');
  // Its stdin stays open while it should run: it exits when the test's process does.
  const child = spawn(process.execPath, ['-e', script, dir, log, ...more], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the release server exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  child.removeAllListeners('exit');
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    requests: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { path: string; userAgent: string }),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

/** Serves the files directly in `dir` (no listing, no subdirectories); anything else is a 404. */
export function serveRelease(dir: string): Promise<ReleaseServer> {
  return serverProcess(SERVER, dir, [], 'http');
}

/**
 * {@link serveRelease}, but `name` is a stream of `size` bytes with no Content-Length: a mirror's
 * endless (or far too large) file. `streamed()` waits until every request for it so far has ended
 * and gives how many bytes each one was sent.
 */
export async function serveOversized(
  dir: string,
  name: string,
  size: number,
): Promise<ReleaseServer & { streamed(): Promise<number[]> }> {
  const streamLog = join(tempDir('tokencli-release-server-'), 'streamed.jsonl');
  writeFileSync(streamLog, '');
  const server = await serverProcess(SERVER, dir, [name, String(size), streamLog], 'http');
  const ended = () =>
    readFileSync(streamLog, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { sent: number }).sent);
  return {
    ...server,
    streamed: async () => {
      const asked = server.requests().filter((r) => r.path === `/${name}`).length;
      // The server notices a client gone a moment after it has exited.
      for (let i = 0; i < 200 && ended().length < asked; i++) await new Promise((r) => setTimeout(r, 25));
      return ended();
    },
  };
}

/** {@link REDIRECT_SERVER} over `dir`, with the TLS key and certificate in these files. */
export function serveRedirects(
  dir: string,
  tls: { keyFile: string; certFile: string },
  plainUrl: string,
): Promise<ReleaseServer> {
  return serverProcess(REDIRECT_SERVER, dir, [tls.keyFile, tls.certFile, plainUrl], 'https');
}

/** {@link CONNECT_PROXY}: its URL is what https_proxy names; `demandsCredentials`, it answers 407. */
export function serveConnectProxy({ demandsCredentials = false } = {}): Promise<ReleaseServer> {
  return serverProcess(CONNECT_PROXY, tempDir('tokencli-proxy-'), demandsCredentials ? ['407'] : [], 'http');
}

/** {@link TLS_FRONT} before the service at `serviceUrl`: https://127.0.0.1:PORT, the service's. */
export function serveTlsFront(
  serviceUrl: string,
  tls: { keyFile: string; certFile: string },
): Promise<ReleaseServer> {
  const servicePort = new URL(serviceUrl).port;
  return serverProcess(
    TLS_FRONT,
    tempDir('tokencli-tls-front-'),
    [servicePort, tls.keyFile, tls.certFile],
    'https',
  );
}

/** What install.sh runs, besides a downloader and a SHA-256 tool. */
export const INSTALL_TOOLS = [
  'sh',
  'uname',
  'cut',
  'sed',
  'tr',
  'awk',
  'mktemp',
  'rm',
  'mkdir',
  'cp',
  'chmod',
  'mv',
  'tar',
  'gzip',
  'cat',
  'grep',
  'rmdir',
  'wc',
  // Built into most shells, not into mksh.
  'printf',
  // For its best-effort steps: sweeping a killed run's staging directory, a link's target said.
  'id',
  'ls',
  'find',
];

/**
 * A PATH of only these tools (symbolic links to the machine's programs), to take curl or sha256sum
 * away. Each is the program on PATH, not a shell's builtin of that name (printf is one in dash,
 * and none in mksh).
 */
export function pathWith(tools: string[]): string {
  const bin = tempDir('tokencli-tools-');
  for (const tool of tools) {
    const found = programOnPath(tool);
    if (found) symlinkSync(found, join(bin, tool));
  }
  return bin;
}

/** The first executable file named `name` in PATH's directories, or undefined. */
export function programOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      if (statSync(path).isFile()) return path;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Writes SHA256SUMS in `dir` over the given files (default: all), as `sha256sum` prints them. */
export function writeSums(dir: string, names = readdirSync(dir).filter((n) => n !== 'SHA256SUMS')): void {
  writeFileSync(join(dir, 'SHA256SUMS'), names.map((n) => `${sha256File(join(dir, n))}  ${n}\n`).join(''));
}

/** This machine's `<os>-<arch>` in a release's names (scripts/release/platform.mjs). */
export const THIS_PLATFORM = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;

/**
 * A release directory holding `tokencli-<version>-<platform>.tar.gz` whose `tokencli` is a shell
 * script printing `<version>` for `--version` as the real one does (or `program`), a man page, and
 * its SHA256SUMS.
 */
export function fakeRelease(
  version: string,
  platform = THIS_PLATFORM,
  program = `#!/bin/sh\necho "${version}"\n`,
): { dir: string; archive: string } {
  const stage = tempDir('tokencli-fake-stage-');
  writeFileSync(join(stage, 'tokencli'), program, { mode: 0o755 });
  writeFileSync(join(stage, 'LICENSE'), 'MIT\n');
  writeFileSync(join(stage, 'tokencli.1'), `.TH TOKENCLI 1 "" "${version}"\n`);
  const dir = tempDir('tokencli-fake-release-');
  const archive = `tokencli-${version}-${platform}.tar.gz`;
  execFileSync('tar', ['-czf', join(dir, archive), '-C', stage, 'tokencli', 'LICENSE', 'tokencli.1']);
  writeSums(dir);
  return { dir, archive };
}
