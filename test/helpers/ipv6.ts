/**
 * Whether this machine has an IPv6 loopback: asked once, by listening on `::1`. Tests that need it
 * skip with the reason where it is truly missing (no IPv6 in the kernel or on `lo`, as in some
 * containers); anything else that goes wrong while they run fails them.
 */
import { createServer } from 'node:net';

/** The reason `::1` cannot be used here, or undefined when it can. */
export function ipv6LoopbackMissing(): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRNOTAVAIL' || error.code === 'EAFNOSUPPORT')
        resolve(`no IPv6 loopback on this machine (${error.code})`);
      else reject(error);
    });
    server.listen(0, '::1', () => server.close(() => resolve(undefined)));
  });
}
