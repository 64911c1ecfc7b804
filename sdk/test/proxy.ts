import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with the n-th request: pass it to the real server, answer itself, or drop the connection. */
export type Step = 'forward' | 'drop' | { status: number; headers?: Record<string, string>; body?: unknown };

export interface Proxy {
  url: string;
  hits: { method: string; path: string; at: number; idempotencyKey?: string }[];
  close(): Promise<void>;
}

/**
 * A real HTTP proxy on 127.0.0.1 in front of the real server, for the outages a test cannot cause in the server
 * itself (a 503 from a load balancer, a connection lost mid-request, a rate limit with a short Retry-After).
 */
export async function startProxy(target: string, step: (req: IncomingMessage, index: number) => Step): Promise<Proxy> {
  const hits: Proxy['hits'] = [];
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a failure here (the target gone) is the test run's unhandled error, as it should be
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const index =
      hits.push({
        method: req.method ?? '',
        path: req.url ?? '',
        at: Date.now(),
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      }) - 1;
    const action = step(req, index);
    if (action === 'drop') {
      req.socket.destroy();
      return;
    }
    if (action !== 'forward') {
      res
        .writeHead(action.status, { 'content-type': 'application/json', ...action.headers })
        .end(JSON.stringify(action.body ?? { statusCode: action.status }));
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers.set(k, v);
    const answer = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
