import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Sender } from '../../../src/features/delivery/sender.js';

let server: Server | undefined;
let tcp: TcpServer | undefined;
let sender: Sender | undefined;
afterEach(async () => {
  sender?.close();
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  await new Promise((r) => (tcp ? tcp.close(r) : r(undefined)));
  server = tcp = sender = undefined;
});

/** A real receiver that decides per request, knowing its connection's number and how many requests it carried. */
async function receiver(
  handle: (req: IncomingMessage, res: ServerResponse, nthOnConnection: number, connection: number) => void,
) {
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
  return {
    url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/hook`,
    requests,
    connections: () => numbers.size,
  };
}

describe('an attempt', () => {
  it('is repeated at once on a new connection when the receiver had closed the kept one before reading it', async () => {
    // Raw TCP, to close the first connection the moment the second request reaches it, unread: what a receiver's
    // idle timeout does when it fires as the attempt is written. Each request comes in one write.
    const perConnection: number[] = [];
    tcp = createTcpServer((socket) => {
      const connection = perConnection.push(0) - 1;
      socket.on('data', (chunk) => {
        for (let i = chunk.toString().split('POST ').length - 1; i > 0; i--) {
          perConnection[connection] += 1;
          if (connection === 0 && perConnection[0] === 2) return socket.destroy();
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        }
      });
    });
    await new Promise<void>((r) => tcp!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(tcp.address() as AddressInfo).port}/hook`;
    sender = new Sender({ timeoutMs: 5000, allowPrivateUrls: true });
    expect((await sender.send(url, {}, '{"n":1}')).ok).toBe(true);
    const second = await sender.send(url, {}, '{"n":2}');
    expect(second).toMatchObject({ ok: true, status: 200, body: 'ok', error: null });
    expect(perConnection).toEqual([2, 1]);
  });

  it('fails, without a repeat, when a kept connection is dropped after the receiver held the request', async () => {
    const rx = await receiver((req, res, nth) =>
      nth === 1 ? res.end('ok') : setTimeout(() => req.socket.destroy(), 300),
    );
    sender = new Sender({ timeoutMs: 5000, allowPrivateUrls: true });
    expect((await sender.send(rx.url, {}, '{}')).ok).toBe(true);
    const second = await sender.send(rx.url, {}, '{}');
    expect(second).toMatchObject({ ok: false, status: null });
    expect(second.error).toMatch(/ECONNRESET|socket hang up/);
    expect(rx.requests).toHaveLength(2);
  });

  it('keeps an idle connection no longer than the receiver announces (Keep-Alive: timeout), less a second', async () => {
    const rx = await receiver((_req, res) => res.end('ok'));
    server!.keepAliveTimeout = 3000; // announced as timeout=3: the sender drops the connection after 2 s idle
    sender = new Sender({ timeoutMs: 5000, allowPrivateUrls: true });
    expect((await sender.send(rx.url, {}, '{}')).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 2300));
    expect((await sender.send(rx.url, {}, '{}')).ok).toBe(true);
    expect(rx.requests).toEqual([
      { connection: 1, nth: 1 },
      { connection: 2, nth: 1 },
    ]);
  });

  it('waits for an answer slower than the idle limit of kept connections, up to its own timeout', async () => {
    const rx = await receiver((_req, res) => setTimeout(() => res.end('late'), 4500));
    sender = new Sender({ timeoutMs: 10_000, allowPrivateUrls: true });
    expect(await sender.send(rx.url, {}, '{}')).toMatchObject({ ok: true, status: 200, body: 'late' });
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
