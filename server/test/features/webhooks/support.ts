export { eventually } from '../../helpers/eventually.js';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEvent } from '../../../src/db/schema.js';
import { enqueue, type OutboxEvent } from '../../../src/features/delivery/outbox.js';
import { startWorker, type WorkerOptions } from '../../../src/features/delivery/worker.js';
import { call, type TestServer } from '../../helpers/server.js';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver does with a request: answer with a status (and body), after a delay, or never. */
export type Reply = { status: number; body?: string; delayMs?: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  reply: (r: Received, index: number) => Reply;
  /** Resolves once `n` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real local HTTP receiver on 127.0.0.1 that records every request with its raw body. */
export async function startReceiver(reply: Receiver['reply'] = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const waiters: { n: number; resolve: () => void }[] = [];
  const hanging: ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    reply,
    waitFor(n, timeoutMs = 10_000) {
      if (receiver.received.length >= n) return Promise.resolve(receiver.received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${receiver.received.length} of ${n} requests`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(receiver.received);
          },
        });
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = receiver.received.push(r) - 1;
      for (const w of waiters.filter((x) => receiver.received.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const answer = receiver.reply(r, index);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      setTimeout(() => res.writeHead(answer.status, answer.headers).end(answer.body ?? ''), answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

/** Registers a webhook through the API and returns the creation response (with its secret). */
export async function register(
  server: TestServer,
  key: string,
  url: string,
  events: WebhookEvent[] = ['order.created', 'order.status_changed', 'order.cancelled', 'offer.updated'],
) {
  const res = await call(server, 'POST', '/partner/webhooks', { key, body: { url, events } });
  if (res.status !== 201) throw new Error(`webhook registration failed: ${res.status} ${res.text}`);
  return res.body as {
    id: string;
    secretKey: string;
    url: string;
    events: string[];
    isActive: boolean;
    failCount: number;
  };
}

/** Records an event as a feature does: inside a transaction of its own. */
export function emit(server: TestServer, e: Partial<OutboxEvent> & { branchId: number; exchangeId: number }) {
  return server.db.transaction().execute((tx) =>
    enqueue(tx, [
      {
        event: 'order.created',
        data: { id: 1, status: 'ORDERINIT', amountSource: '100', amountDest: '92.15' },
        ...e,
      },
    ]),
  );
}

/**
 * A worker on the test server's database, fast-polling, listening on Postgres when the suite runs there. Tests
 * send traffic only to this machine, so a webhook pointing anywhere else fails the test before any attempt.
 */
export async function worker(server: TestServer, settings: WorkerOptions['settings'] = {}, id?: string) {
  const hooks = await server.db.selectFrom('webhooks').select('url').execute();
  const remote = hooks.filter((h) => !['127.0.0.1', 'localhost'].includes(new URL(h.url).hostname));
  if (remote.length > 0) throw new Error(`a test worker would call ${remote.map((h) => h.url).join(', ')}`);
  return startWorker(server.ctx, {
    id,
    listenUrl: server.database.url ?? null,
    settings: { pollMs: 100, ...settings },
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function deliveries(server: TestServer, webhookId: string) {
  return server.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at')
    .execute();
}
