import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '../../src/db/database.js';
import { enqueue } from '../../src/features/delivery/outbox.js';
import { atLeast, type Scenario } from '../lib/scenario.js';
import { startWorker } from '../lib/service.js';

const NAME = 'webhook deliveries';
const MIN_PER_SECOND = 1000;

/**
 * Webhook throughput: a backlog of `order.created` deliveries, written through the outbox as order creations write
 * them, drained by one worker process (`pxs worker`, as deployed) to a local receiver that answers 200 at once.
 * Timed from the first delivery's arrival (the worker's start-up is not delivery time) until every outcome is
 * recorded.
 */
export const webhooks: Scenario = {
  name: 'webhooks',
  async run(ctx) {
    if (!ctx.selected(NAME)) return [];
    const rx = await startReceiver();
    try {
      const { perSecond, peakRssMb } = await drainBacklog(ctx.db, ctx.databaseUrl, rx, ctx.quick ? 2000 : 6000);
      return [
        {
          name: NAME,
          subject: 'webhook worker (pxs worker)',
          perSecond,
          peakRssMb,
          checks: [atLeast(perSecond, MIN_PER_SECOND, `≥ ${MIN_PER_SECOND.toLocaleString('en')}/s`)],
        },
      ];
    } finally {
      rx.close();
    }
  },
};

export interface Receiver {
  url: string;
  firstAt(): number;
  received(): number;
  reset(): void;
  close(): void;
}

/**
 * Produces a backlog of `count` deliveries to the receiver, starts a worker process, and waits until every one
 * has succeeded: deliveries per second from the first arrival. `during` runs once the first delivery arrived,
 * while the worker drains (the scale scenario prunes then).
 */
export async function drainBacklog(
  db: Database,
  databaseUrl: string,
  rx: Receiver,
  count: number,
  during?: (webhookId: string) => Promise<void>,
): Promise<{ perSecond: number; peakRssMb: number }> {
  rx.reset();
  const webhookId = await produceBacklog(db, rx.url, count);
  const worker = await startWorker(databaseUrl);
  try {
    const deadline = Date.now() + 300_000;
    let ran = !during;
    while ((await succeeded(db, webhookId)) < count) {
      if (worker.exited()) throw new Error('webhooks: the worker exited');
      if (Date.now() > deadline) throw new Error('webhooks: the backlog was not drained within 300 s');
      if (!ran && rx.firstAt()) {
        ran = true;
        await during!(webhookId);
        continue;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return {
      perSecond: Math.round(count / ((performance.now() - rx.firstAt()) / 1000)),
      peakRssMb: worker.peakRssMb(),
    };
  } finally {
    await worker.stop();
  }
}

/** A branch with one webhook to the receiver, and `count` events for it in transactions of 100. */
export async function produceBacklog(db: Database, url: string, count: number): Promise<string> {
  const branch = await db
    .insertInto('branches')
    .values({ name: `Webhook bench ${Date.now()}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const exchange = await db
    .insertInto('exchanges')
    .values({ branch_id: branch.id, name: 'Webhook bench exchange', updated_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const webhook = await db
    .insertInto('webhooks')
    .values({
      branch_id: branch.id,
      url,
      events: ['order.created'],
      secret_key: 'b'.repeat(64),
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const at = { branchId: branch.id, exchangeId: exchange.id };
  for (let i = 0; i < count; i += 100) {
    const ids = Array.from({ length: Math.min(100, count - i) }, (_, k) => i + k);
    const events = ids.map((id) => ({
      event: 'order.created' as const,
      ...at,
      data: { id, status: 'ORDERINIT', amountSource: '100', amountDest: '92.15' },
    }));
    await db.transaction().execute((tx) => enqueue(tx, events));
  }
  return webhook.id;
}

export async function succeeded(db: Database, webhookId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A partner's endpoint that answers 200 at once; it notes when the first delivery came, and counts them. */
export async function startReceiver(): Promise<Receiver> {
  let first = 0;
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      first ||= performance.now();
      count += 1;
      res.writeHead(200).end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    firstAt: () => first,
    received: () => count,
    reset: () => {
      first = 0;
      count = 0;
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
