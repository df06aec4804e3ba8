import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';

/** What the proxy answers instead of forwarding: a status and a JSON body. */
interface Fault {
  status: number;
  body: unknown;
}

/**
 * A proxy in front of the emulator that forwards every request except those `fault` answers itself: the n-th call of a path
 * fails while the others succeed, which a fault rate spread over every request cannot aim at.
 */
export async function startFaultProxy(
  target: string,
  fault: (path: string, nth: number) => Fault | undefined,
): Promise<{ url: string; close(): Promise<void> }> {
  const counts = new Map<string, number>();
  const upstream = new URL(target);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    const nth = (counts.get(path) ?? 0) + 1;
    counts.set(path, nth);
    const answer = fault(path, nth);
    if (answer) {
      req.resume();
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(answer.body));
    }
    const forward = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
