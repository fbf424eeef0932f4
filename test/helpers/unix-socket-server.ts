/**
 * A server on a Unix socket for one test (a fake D-Bus session bus): listening once this resolves,
 * and closed after the test with every connection it accepted.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach } from 'vitest';

const running: Array<{ server: Server; sockets: Socket[] }> = [];
afterEach(async () => {
  for (const { server, sockets } of running.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise((r) => server.close(r));
  }
});

export async function listenOnSocketForTest(
  path: string,
  onConnection: (socket: Socket) => void,
): Promise<Server> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    onConnection(socket);
  });
  running.push({ server, sockets });
  await new Promise<void>((r) => server.listen(path, r));
  return server;
}
