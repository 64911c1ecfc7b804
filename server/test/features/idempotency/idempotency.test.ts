import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLockTimeout } from '../../../src/features/idempotency/repository.js';
import { usingPostgres } from '../../helpers/database.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { orderBody } from '../orders/support.js';

let server: TestServer;
let world: World;
// A repeat waits this long for the first request before its 409: long enough that 20 parallel requests on a busy CI
// machine all wait for the first, short enough for the test that holds the key open.
beforeAll(async () => {
  ({ server, world } = await startWorld({ env: { IDEMPOTENCY_LOCK_WAIT_MS: '3000' } }));
}, 180_000);
afterAll(() => server?.close());

let n = 0;
const newKey = () => `key-${process.pid}-${++n}-${Math.random().toString(36).slice(2)}`;
const post = (path: string, key: string, body: unknown, idempotencyKey?: string) =>
  call(server, 'POST', path, {
    key,
    body,
    headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
  });
const orderCount = async () =>
  Number(
    (
      await server.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('Idempotency-Key on POST /partner/orders', () => {
  it('replays the first answer byte for byte for the same key and body, and creates one order', async () => {
    const before = await orderCount();
    const k = newKey();
    const first = await post('/partner/orders', world.keys.branch, orderBody(world), k);
    const again = await post('/partner/orders', world.keys.branch, orderBody(world), k);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await orderCount()).toBe(before + 1);
  });

  it('recognizes the same body whatever its key order', async () => {
    const k = newKey();
    const first = await post('/partner/orders', world.keys.branch, orderBody(world), k);
    const body = orderBody(world);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await post('/partner/orders', world.keys.branch, reordered, k);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
  });

  it("without the header, two identical requests create two orders (today's behaviour)", async () => {
    const a = await post('/partner/orders', world.keys.branch, orderBody(world));
    const b = await post('/partner/orders', world.keys.branch, orderBody(world));
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('refuses the same key with a different body (422) and creates nothing', async () => {
    const k = newKey();
    await post('/partner/orders', world.keys.branch, orderBody(world), k);
    const before = await orderCount();
    const other = await post('/partner/orders', world.keys.branch, orderBody(world, { clientAmount: 200 }), k);
    expect(other.status).toBe(422);
    expect(other.body.message).toMatch(/Idempotency-Key was already used with a different request/);
    expect(await orderCount()).toBe(before);
  });

  it('refuses a malformed key (400)', async () => {
    for (const bad of ['x'.repeat(256), 'caf\u00e9', 'tab\tkey']) {
      const res = await call(server, 'POST', '/partner/orders', {
        key: world.keys.branch,
        body: orderBody(world),
        headers: { 'idempotency-key': bad },
      });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await post('/partner/orders', world.keys.branch, orderBody(world), 'x'.repeat(255))).status).toBe(201);
  });

  it('stores nothing for a refused request: the key stays free', async () => {
    const k = newKey();
    const refused = await post(
      '/partner/orders',
      world.keys.branch,
      orderBody(world, { cashbox: { id: world.exchanges.C } }),
      k,
    );
    expect(refused.status).toBe(400);
    const retried = await post(
      '/partner/orders',
      world.keys.branch,
      orderBody(world, { cashbox: { id: world.exchanges.C } }),
      k,
    );
    expect(retried.status).toBe(400);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const fixed = await post('/partner/orders', world.keys.branch, orderBody(world), k);
    expect(fixed.status).toBe(201);
  });

  it('is scoped to the API key: another key (of this or another branch) with the same key string creates its own', async () => {
    const k = newKey();
    const mine = await post('/partner/orders', world.keys.branch, orderBody(world), k);
    const operator = await post('/partner/orders', world.keys.operatorA, orderBody(world), k);
    const other = await post(
      '/partner/orders',
      world.keys.otherBranch,
      orderBody(world, { cashbox: { id: world.exchanges.C } }),
      k,
    );
    expect([mine.status, operator.status, other.status]).toEqual([201, 201, 201]);
    expect(operator.headers.get('idempotent-replayed')).toBeNull();
    expect(new Set([mine.body.id, operator.body.id, other.body.id]).size).toBe(3);
    expect(other.body.cashbox.id).toBe(world.exchanges.C);
  });

  it('an expired key (24 h) is taken afresh', async () => {
    const k = newKey();
    const first = await post('/partner/orders', world.keys.branch, orderBody(world), k);
    await server.db
      .updateTable('idempotency_keys' as never)
      .set({ expires_at: new Date(Date.now() - 1000) } as never)
      .where('key' as never, '=', k as never)
      .execute();
    const later = await post('/partner/orders', world.keys.branch, orderBody(world, { clientAmount: 300 }), k);
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
  });

  it('20 parallel identical requests with one key create exactly one order, and every answer carries its id', async () => {
    const before = await orderCount();
    const k = newKey();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('/partner/orders', world.keys.branch, orderBody(world), k)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await orderCount()).toBe(before + 1);
  });

  it.skipIf(!usingPostgres)(
    'a repeat while the first is still running gets 409 (PostgreSQL: concurrent transactions)',
    async () => {
      const k = newKey();
      // The first request, caught mid-flight: its transaction holds the key's row, uncommitted.
      const client = new pg.Client({ connectionString: server.database.url });
      await client.connect();
      try {
        await client.query('begin');
        await client.query(
          `insert into idempotency_keys (api_key_id, key, request_hash, expires_at) values ($1, $2, 'h', now() + interval '1 hour')`,
          [world.keyIds.branch, k],
        );
        const repeat = await post('/partner/orders', world.keys.branch, orderBody(world), k);
        expect(repeat.status).toBe(409);
        expect(repeat.body.message).toMatch(/still being processed/);
      } finally {
        await client.query('rollback');
        await client.end();
      }
      // Once the first one is gone (rolled back), the key is free.
      expect((await post('/partner/orders', world.keys.branch, orderBody(world), k)).status).toBe(201);
    },
  );
});

describe('IDEMPOTENCY_LOCK_WAIT_MS', () => {
  it('of 0 waits the shortest time PostgreSQL takes, where its lock_timeout of 0 would wait for ever', async () => {
    const shown = await server.db.transaction().execute(async (tx) => {
      await setLockTimeout(tx, 0);
      return (await sql<{ lock_timeout: string }>`show lock_timeout`.execute(tx)).rows[0].lock_timeout;
    });
    expect(shown).toBe('1ms');
  });
});

describe('Idempotency-Key on POST /partner/clients and /partner/webhooks', () => {
  it('replays a client creation', async () => {
    const k = newKey();
    const body = { firstName: 'Ida', lastName: 'Empotent', email: `ida-${n}@example.com`, phone: '+15550001111' };
    const first = await post('/partner/clients', world.keys.branch, body, k);
    const again = await post('/partner/clients', world.keys.branch, body, k);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    // Without the key the same email is refused as before.
    expect((await post('/partner/clients', world.keys.branch, body)).status).toBe(400);
  });

  it('replays a webhook registration and its secret, and refuses a different body', async () => {
    const k = newKey();
    const body = { url: 'http://127.0.0.1:8/hook', events: ['order.created'] };
    const first = await post('/partner/webhooks', world.keys.branch, body, k);
    const again = await post('/partner/webhooks', world.keys.branch, body, k);
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const list = await call(server, 'GET', '/partner/webhooks', { key: world.keys.branch });
    expect(list.body.data.filter((w: { url: string }) => w.url === body.url)).toHaveLength(1);
    expect(
      (await post('/partner/webhooks', world.keys.branch, { ...body, events: ['order.cancelled'] }, k)).status,
    ).toBe(422);
  });
});

describe('Idempotency-Key is ignored where it does not apply', () => {
  it('reads are unaffected by the header', async () => {
    const res = await call(server, 'GET', '/partner/orders', {
      key: world.keys.branch,
      headers: { 'idempotency-key': newKey() },
    });
    expect(res.status).toBe(200);
  });
});
