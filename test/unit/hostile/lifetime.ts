import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Listens on 127.0.0.1 and closes the server, with every open connection, after `lifetimeMs` or on `close()`: a hostile
 * stand-in a test forgets to close cannot hang the run, and one that keeps a connection open cannot hold `close()`.
 */
export async function listenForAWhile(server: Server, lifetimeMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      clearTimeout(lifetime);
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  const lifetime = setTimeout(() => void close(), lifetimeMs);
  lifetime.unref();
  return { port: (server.address() as { port: number }).port, close };
}
