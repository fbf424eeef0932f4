/**
 * Reads what `tokencli sso` is handed — a SAML file, stdin, a PEM key — with a size cap, so a
 * wrong path (a log, `/dev/zero`) fails quickly with a clear usage error instead of filling
 * memory, and so file errors name the flag and the path, never the content.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';

export interface ReadInputOptions {
  /** The flag the path came from, for messages: `--saml-response`. */
  flag: string;
  /** Refuse more than this many bytes. */
  maxBytes: number;
  /** What is being read, for the size message: "SAML input", "key file". */
  what: string;
}

function describeFsError(error: unknown): string {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return (error as NodeJS.ErrnoException | undefined)?.code ?? 'read error';
  }
}

/** Collects a stream, refusing it once it passes `maxBytes`. */
async function collect(stream: Readable, label: string, options: ReadInputOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > options.maxBytes) {
      stream.destroy();
      throw new UsageError(
        `${options.flag}: ${label} is too large (over ${Math.floor(options.maxBytes / 1024)} KiB for a ${options.what})`,
        'pass a single SAML response or assertion, or a single PEM file',
      );
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads `path` (or stdin for `-`, when `stdin` is given) whole, up to `maxBytes`.
 *
 * @throws UsageError naming the flag, the path and what went wrong (missing, unreadable, too large)
 */
export async function readInput(
  path: string,
  stdin: Readable | undefined,
  options: ReadInputOptions,
): Promise<Buffer> {
  if (path === '-') {
    if (!stdin) throw new UsageError(`${options.flag} must name a file; it is not read from stdin`);
    return collect(stdin, 'stdin', options);
  }
  try {
    return await collect(createReadStream(path), path, options);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `${options.flag}: cannot read ${path}: ${describeFsError(error)}`,
      'check the path and its permissions',
    );
  }
}
