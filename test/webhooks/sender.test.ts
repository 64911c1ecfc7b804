import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Sender } from '../../src/features/webhooks/sender.js';

let server: Server | undefined;
let sender: Sender | undefined;
afterEach(async () => {
  sender?.close();
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = sender = undefined;
});

/** A real receiver that decides per request, knowing its connection's number and how many requests it carried. */
async function receiver(handle: (req: IncomingMessage, res: ServerResponse, nthOnConnection: number, connection: number) => void) {
  const numbers = new Map<Socket, { connection: number; requests: number }>();
  const requests: { connection: number; nth: number }[] = [];
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const c = numbers.get(req.socket)!;
      c.requests += 1;
      requests.push({ connection: c.connection, nth: c.requests });
      handle(req, res, c.requests, c.connection);
    });
  });
  server.on('connection', (socket: Socket) => numbers.set(socket, { connection: numbers.size + 1, requests: 0 }));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/hook`, requests, connections: () => numbers.size };
}

describe('an attempt', () => {
  it('is repeated at once on a new connection when the receiver drops a kept-alive one as the attempt arrives', async () => {
    // The first connection answers once, then closes as its second request comes in: the race with an idle timeout.
    const rx = await receiver((req, res, nth, connection) => (connection === 1 && nth === 2 ? req.socket.destroy() : res.end('ok')));
    sender = new Sender({ timeoutMs: 5000, allowPrivateUrls: true });
    expect((await sender.send(rx.url, {}, '{"n":1}')).ok).toBe(true);
    const second = await sender.send(rx.url, {}, '{"n":2}');
    expect(second).toMatchObject({ ok: true, status: 200, body: 'ok', error: null });
    expect(rx.connections()).toBe(2);
    expect(rx.requests).toHaveLength(3);
  });

  it('fails, without a repeat, when a new connection is dropped', async () => {
    const rx = await receiver((req) => req.socket.destroy());
    sender = new Sender({ timeoutMs: 5000, allowPrivateUrls: true });
    const result = await sender.send(rx.url, {}, '{}');
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(/ECONNRESET|socket hang up/);
    expect(rx.requests).toHaveLength(1);
  });

  it('fails, without a repeat, when a kept-alive connection is dropped after the answer began', async () => {
    const rx = await receiver((req, res, nth) => {
      if (nth === 1) return res.end('ok');
      res.writeHead(200, { 'content-length': '10' }).write('par');
      setTimeout(() => req.socket.destroy(), 20);
    });
    sender = new Sender({ timeoutMs: 5000, allowPrivateUrls: true });
    expect((await sender.send(rx.url, {}, '{}')).ok).toBe(true);
    const second = await sender.send(rx.url, {}, '{}');
    expect(second.ok).toBe(false);
    expect(rx.requests).toHaveLength(2);
  });
});
