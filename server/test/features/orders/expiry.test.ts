import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/db/database.js';
import { startExpiry, type OrderExpiry } from '../../../src/features/orders/expiry.js';
import { Metrics } from '../../../src/http/metrics.js';
import { usingPostgres } from '../../helpers/database.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { eventually, register, sleep, startReceiver, worker, type Receiver } from '../webhooks/support.js';
import { orderBody, placeOrder } from './support.js';
import { expiredOnce, setWindow, type Placed } from './expiry-support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
});
afterAll(() => server?.close());

const place = async (exchangeId = world.exchanges.A) =>
  (await placeOrder(server, world.keys.branch, orderBody(world, { cashbox: { id: exchangeId } }))) as Placed;

const move = async (id: number, status: string) => {
  const res = await call(server, 'POST', `/admin/orders/${id}/status`, { token: tokens.admin1, body: { status } });
  expect(res.status, res.text).toBe(200);
};

describe('paymentWindowSeconds on exchanges', () => {
  it('is 3600 for a new exchange, kept by a PATCH that leaves it out, and set by one that gives it', async () => {
    const created = await call(server, 'POST', '/admin/exchanges', { token: tokens.admin1, body: { name: 'Window' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.paymentWindowSeconds).toBe(3600);
    const renamed = await call(server, 'PATCH', `/admin/exchanges/${created.body.id}`, {
      token: tokens.admin1,
      body: { name: 'Window 2' },
    });
    expect(renamed.body.paymentWindowSeconds).toBe(3600);
    const set = await call(server, 'PATCH', `/admin/exchanges/${created.body.id}`, {
      token: tokens.admin1,
      body: { paymentWindowSeconds: 0 },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.paymentWindowSeconds).toBe(0);
    const read = await call(server, 'GET', `/admin/exchanges/${created.body.id}`, { token: tokens.admin1 });
    expect(read.body.paymentWindowSeconds).toBe(0);
    const withWindow = await call(server, 'POST', '/admin/exchanges', {
      token: tokens.admin1,
      body: { name: 'Window 3', paymentWindowSeconds: 600 },
    });
    expect(withWindow.body.paymentWindowSeconds).toBe(600);
  });

  it.each([-1, 604_801, 1.5, '60', null])('refuses %j with a 400', async (value) => {
    const res = await call(server, 'PATCH', `/admin/exchanges/${world.exchanges.B}`, {
      token: tokens.admin1,
      body: { paymentWindowSeconds: value },
    });
    expect(res.status, res.text).toBe(400);
  });

  it("is another branch's exchange: 404", async () => {
    const res = await call(server, 'PATCH', `/admin/exchanges/${world.exchanges.C}`, {
      token: tokens.admin1,
      body: { paymentWindowSeconds: 5 },
    });
    expect(res.status).toBe(404);
  });
});

describe('expiresAt', () => {
  it('is creation + the window while unpaid, in the partner and admin views and the order.created event', async () => {
    await setWindow(server, tokens.admin1, world.exchanges.B, 120);
    const order = await place(world.exchanges.B);
    expect(order.expiresAt).not.toBeNull();
    const window = Date.parse(order.expiresAt!) - Date.parse(order.createdAt);
    expect(window).toBeGreaterThan(119_000);
    expect(window).toBeLessThan(121_000);
    const partner = await call(server, 'GET', `/partner/orders/${order.id}`, { key: world.keys.branch });
    expect(partner.body.expiresAt).toBe(order.expiresAt);
    const admin = await call(server, 'GET', `/admin/orders/${order.id}`, { token: tokens.admin1 });
    expect(admin.body.expiresAt).toBe(order.expiresAt);
    const feed = await call(server, 'GET', '/partner/events', { key: world.keys.branch, query: { limit: '1000' } });
    const created = feed.body.data.find((e: any) => e.event === 'order.created' && e.data.id === order.id);
    expect(created.data.expiresAt).toBe(order.expiresAt);
  });

  it('stays through CLIENTPAYMENTWAIT and is cleared once the client has paid', async () => {
    await setWindow(server, tokens.admin1, world.exchanges.B, 120);
    const order = await place(world.exchanges.B);
    await move(order.id, 'CLIENTPAYMENTWAIT');
    let read = await call(server, 'GET', `/partner/orders/${order.id}`, { key: world.keys.branch });
    expect(read.body.expiresAt).toBe(order.expiresAt);
    await move(order.id, 'EXCHANGEPAYMENTWAIT');
    read = await call(server, 'GET', `/partner/orders/${order.id}`, { key: world.keys.branch });
    expect(read.body.expiresAt).toBeNull();
  });

  it('is cleared by a cancel, and null for an exchange whose orders never expire', async () => {
    await setWindow(server, tokens.admin1, world.exchanges.B, 120);
    const order = await place(world.exchanges.B);
    const cancelled = await call(server, 'POST', `/partner/orders/${order.id}/cancel`, { key: world.keys.branch });
    expect(cancelled.body.expiresAt).toBeNull();
    await setWindow(server, tokens.admin1, world.exchanges.B, 0);
    expect((await place(world.exchanges.B)).expiresAt).toBeNull();
  });
});

describe('the expiry job', () => {
  let receiver: Receiver;
  let hooks: string[];
  const extra: DatabaseHandle[] = [];
  const secondMetrics = new Metrics();

  beforeAll(async () => {
    receiver = await startReceiver();
    // Two subscribers: each must get the cancel once.
    hooks = [
      (await register(server, world.keys.branch, receiver.url)).id,
      (await register(server, world.keys.admin1, receiver.url)).id,
    ];
  });
  afterAll(async () => {
    await receiver?.close();
    for (const d of extra) await d.close();
  });

  /** A second job on a database handle of its own where it can have one (PostgreSQL); PGlite has one connection. */
  async function secondJob(): Promise<OrderExpiry> {
    if (!usingPostgres) return startExpiry(server.ctx, { pollMs: 200 });
    const database = await openDatabase({ databaseUrl: server.database.url, dataDir: 'memory://', poolSize: 2 });
    extra.push(database);
    return startExpiry({ db: database.db, metrics: secondMetrics, log: server.ctx.log });
  }

  it('cancels an unpaid order within 5 s of expiresAt, once with two jobs running; a paid one stays', async () => {
    await setWindow(server, tokens.admin1, world.exchanges.A, 3);
    const before = await expiredCount();
    const unpaid = await place();
    const waiting = await place();
    await move(waiting.id, 'CLIENTPAYMENTWAIT');
    const paid = await place();
    await move(paid.id, 'CLIENTPAYMENTWAIT');
    await move(paid.id, 'EXCHANGEPAYMENTWAIT');
    const jobs = [startExpiry(server.ctx), await secondJob()];
    const delivery = await worker(server);
    try {
      for (const o of [unpaid, waiting]) await expiredOnce(server, o, hooks, receiver);
      await sleep(1500);
      const still = await call(server, 'GET', `/partner/orders/${paid.id}`, { key: world.keys.branch });
      expect(still.body).toMatchObject({ status: 'EXCHANGEPAYMENTWAIT', expiresAt: null });
      // On PostgreSQL the second job counts in a registry of its own: together, the two orders.
      expect((await expiredCount()) + (await expiredCount(secondMetrics))).toBe(before + 2);
    } finally {
      await Promise.all(jobs.map((j) => j.stop()));
      await delivery.stop();
    }
    const admin = await call(server, 'GET', `/admin/orders/${unpaid.id}`, { token: tokens.admin1 });
    expect(admin.body.history.at(-1)).toMatchObject({
      fromStatus: 'ORDERINIT',
      toStatus: 'CANCEL',
      actor: { type: 'system', apiKeyId: null, staffUserId: null, staffEmail: null },
      comment: 'expired',
    });
    expect(admin.body.expiresAt).toBeNull();
  });

  it('cancels, when a job starts, an order that became due while none ran', async () => {
    await setWindow(server, tokens.admin1, world.exchanges.A, 1);
    const order = await place();
    await sleep(2000);
    const still = await call(server, 'GET', `/partner/orders/${order.id}`, { key: world.keys.branch });
    expect(still.body.status).toBe('ORDERINIT');
    const job = startExpiry(server.ctx);
    const delivery = await worker(server);
    try {
      await expiredOnce(server, order, hooks, receiver, { startedAt: Date.now() });
    } finally {
      await job.stop();
      await delivery.stop();
    }
  });

  it("releases an expired order's hold at a tracked position: held back to what it was, the balance untouched", async () => {
    await setWindow(server, tokens.admin1, world.exchanges.B, 2);
    const cash = `/admin/exchanges/${world.exchanges.B}/cash`;
    const deposit = await call(server, 'POST', `${cash}/${world.currencies.EUR}/movements`, {
      token: tokens.admin1,
      body: { kind: 'deposit', amount: '5000', reason: 'float for the expiry test' },
    });
    expect(deposit.status, deposit.text).toBe(201);
    const position = async () => {
      const res = await call(server, 'GET', cash, { token: tokens.admin1 });
      expect(res.status, res.text).toBe(200);
      return (res.body.data as { currency: { id: number }; balance: number; held: number }[]).find(
        (p) => p.currency.id === world.currencies.EUR,
      )!;
    };
    const before = await position();
    const order = await place(world.exchanges.B);
    const holding = await position();
    expect(holding.held).toBeGreaterThan(before.held);
    const job = startExpiry(server.ctx);
    try {
      await eventually(async () => (await position()).held === before.held, 10_000, 100);
    } finally {
      await job.stop();
    }
    const after = await position();
    expect(after).toMatchObject({ balance: before.balance, held: before.held });
    const res = await call(server, 'GET', `/partner/orders/${order.id}`, { key: world.keys.branch });
    expect(res.body.status).toBe('CANCEL');
  });

  it('counts expired orders on /metrics', async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/^pxs_orders_expired_total [1-9]\d*$/m);
  });

  async function expiredCount(metrics = server.ctx.metrics): Promise<number> {
    return (await metrics.ordersExpired.get()).values[0]?.value ?? 0;
  }
});

describe('an order whose cancel fails', () => {
  it('is passed over: the orders due after it still expire, and the job goes on', async () => {
    await setWindow(server, tokens.admin1, world.exchanges.A, 1);
    const stuck = await place();
    const next = await place();
    // A fault of this one order alone (not the database's): its cancel fails every time.
    await sql
      .raw(
        `create function pxs_test_stuck() returns trigger language plpgsql as $$ begin raise exception 'stuck order'; end $$`,
      )
      .execute(server.db);
    await sql
      .raw(
        `create trigger pxs_test_stuck before update on orders for each row when (old.id = ${stuck.id}) execute function pxs_test_stuck()`,
      )
      .execute(server.db);
    const logged: unknown[][] = [];
    const job = startExpiry({ db: server.db, metrics: new Metrics(), log: (...args) => logged.push(args) });
    try {
      const status = async (id: number) =>
        (await call(server, 'GET', `/partner/orders/${id}`, { key: world.keys.branch })).body.status as string;
      await eventually(async () => (await status(next.id)) === 'CANCEL', 8000, 100);
      expect(Date.now() - Date.parse(next.expiresAt!)).toBeLessThan(5000);
      expect(await status(stuck.id)).toBe('ORDERINIT');
      expect(logged).toContainEqual([
        'error',
        'an expired order could not be cancelled; passing over it for a minute',
        expect.objectContaining({ orderId: stuck.id }),
      ]);
    } finally {
      await job.stop();
      await sql.raw('drop trigger pxs_test_stuck on orders').execute(server.db);
      await sql.raw('drop function pxs_test_stuck()').execute(server.db);
    }
  });
});

describe('a partner cancel racing the expiry', () => {
  it('one of the two wins: the order is cancelled once', async () => {
    await setWindow(server, tokens.admin1, world.exchanges.A, 1);
    const order = await place();
    await eventually(async () => Date.now() > Date.parse(order.expiresAt!) + 50, 5000, 50);
    const job = startExpiry(server.ctx);
    try {
      await call(server, 'POST', `/partner/orders/${order.id}/cancel`, { key: world.keys.branch });
      await eventually(async () => {
        const r = await call(server, 'GET', `/partner/orders/${order.id}`, { key: world.keys.branch });
        return r.body.status === 'CANCEL';
      });
      await sleep(300);
    } finally {
      await job.stop();
    }
    const cancels = await server.db
      .selectFrom('order_status_history')
      .select('actor_type')
      .where('order_id', '=', order.id)
      .where('to_status', '=', 'CANCEL')
      .execute();
    expect(cancels).toHaveLength(1);
  });
});
