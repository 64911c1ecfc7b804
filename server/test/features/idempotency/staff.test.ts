import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneIdempotencyKeys } from '../../../src/features/idempotency/service.js';
import { usingPostgres } from '../../helpers/database.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { orderBody } from '../orders/support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
}, 180_000);
afterAll(() => server?.close());

let n = 0;
const newKey = () => `staff-key-${process.pid}-${++n}-${Math.random().toString(36).slice(2)}`;
const post = (path: string, who: StaffName, body: unknown, idempotencyKey?: string) =>
  call(server, 'POST', path, {
    token: tokens[who],
    body,
    headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
  });
const count = async (table: 'orders' | 'clients') =>
  Number(
    (
      await server.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const audited = async (action: string) =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from audit_log where action = ${action}`.execute(server.db)).rows[0]
      .n,
  );
const newClient = (tag: string) => ({
  firstName: 'Walk',
  lastName: `In ${tag}`,
  email: `walk-in-${tag}-${process.pid}-${n}@example.com`,
  phone: '+15550002222',
});

describe('Idempotency-Key on POST /admin/orders (a counter order)', () => {
  it('replays the first answer byte for byte for the same key and body, and creates one order, audited once', async () => {
    const [orders, audits] = [await count('orders'), await audited('order.create')];
    const k = newKey();
    const first = await post('/admin/orders', 'operatorA', orderBody(world), k);
    const again = await post('/admin/orders', 'operatorA', orderBody(world), k);
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.body.source).toBe('counter');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await count('orders')).toBe(orders + 1);
    expect(await audited('order.create')).toBe(audits + 1);
  });

  it('answers the first request with the order as GET /admin/orders/{id} shows it, history included', async () => {
    const first = await post('/admin/orders', 'operatorA', orderBody(world), newKey());
    expect(first.status, first.text).toBe(201);
    const read = await call(server, 'GET', `/admin/orders/${first.body.id}`, { token: tokens.operatorA });
    expect(first.body).toEqual(read.body);
    expect(first.body.history).toHaveLength(1);
  });

  it('refuses the same key with a different body (422) and creates nothing', async () => {
    const k = newKey();
    expect((await post('/admin/orders', 'operatorA', orderBody(world), k)).status).toBe(201);
    const before = await count('orders');
    const other = await post('/admin/orders', 'operatorA', orderBody(world, { clientAmount: 200 }), k);
    expect(other.status).toBe(422);
    expect(other.body.message).toMatch(/Idempotency-Key was already used with a different request/);
    expect(await count('orders')).toBe(before);
  });

  it('refuses a malformed key (400)', async () => {
    const res = await post('/admin/orders', 'operatorA', orderBody(world), 'caf\u00e9');
    expect(res.status).toBe(400);
  });

  it('is scoped to the staff user: another staff user with the same key string gets an order of their own', async () => {
    const before = await count('orders');
    const k = newKey();
    const cashier = await post('/admin/orders', 'operatorA', orderBody(world), k);
    const admin = await post('/admin/orders', 'admin1', orderBody(world), k);
    expect([cashier.status, admin.status]).toEqual([201, 201]);
    expect(admin.headers.get('idempotent-replayed')).toBeNull();
    expect(admin.body.id).not.toBe(cashier.body.id);
    expect(admin.body.createdBy.id).toBe(world.staff.admin1.id);
    expect(await count('orders')).toBe(before + 2);
    // Each one's repeat is answered with its own order.
    const cashierAgain = await post('/admin/orders', 'operatorA', orderBody(world), k);
    const adminAgain = await post('/admin/orders', 'admin1', orderBody(world), k);
    expect([cashierAgain.body.id, adminAgain.body.id]).toEqual([cashier.body.id, admin.body.id]);
    expect(await count('orders')).toBe(before + 2);
  });

  it("is not shared with the staff user's own API key: a partner order with the same key string is another order", async () => {
    const k = newKey();
    const counter = await post('/admin/orders', 'operatorA', orderBody(world), k);
    const partner = await call(server, 'POST', '/partner/orders', {
      key: world.keys.operatorA,
      body: orderBody(world),
      headers: { 'idempotency-key': k },
    });
    expect([counter.status, partner.status]).toEqual([201, 201]);
    expect(partner.headers.get('idempotent-replayed')).toBeNull();
    expect(partner.body.id).not.toBe(counter.body.id);
  });

  it('without the header, two identical requests still create two orders', async () => {
    const a = await post('/admin/orders', 'operatorA', orderBody(world));
    const b = await post('/admin/orders', 'operatorA', orderBody(world));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('stores nothing for a refused request: the key stays free', async () => {
    const k = newKey();
    const refused = await post(
      '/admin/orders',
      'operatorA',
      orderBody(world, { cashbox: { id: world.exchanges.C } }),
      k,
    );
    expect(refused.status).toBe(400);
    const fixed = await post('/admin/orders', 'operatorA', orderBody(world), k);
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('an expired key (24 h) is taken afresh, and the retention sweep deletes expired staff keys', async () => {
    const k = newKey();
    const first = await post('/admin/orders', 'operatorA', orderBody(world), k);
    await sql`update staff_idempotency_keys set expires_at = now() - interval '1 second' where key = ${k}`.execute(
      server.db,
    );
    const later = await post('/admin/orders', 'operatorA', orderBody(world, { clientAmount: 300 }), k);
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);

    const partnerKey = newKey();
    await call(server, 'POST', '/partner/orders', {
      key: world.keys.branch,
      body: orderBody(world),
      headers: { 'idempotency-key': partnerKey },
    });
    await sql`update staff_idempotency_keys set expires_at = now() - interval '1 second' where key = ${k}`.execute(
      server.db,
    );
    await sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = ${partnerKey}`.execute(
      server.db,
    );
    expect(await pruneIdempotencyKeys(server.db)).toBeGreaterThanOrEqual(2);
    const left = await sql<{ key: string }>`
      select key from staff_idempotency_keys where key = ${k}
      union all select key from idempotency_keys where key = ${partnerKey}`.execute(server.db);
    expect(left.rows).toEqual([]);
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
          `insert into staff_idempotency_keys (staff_user_id, key, request_hash, expires_at) values ($1, $2, 'h', now() + interval '1 hour')`,
          [world.staff.operatorA.id, k],
        );
        const repeat = await post('/admin/orders', 'operatorA', orderBody(world), k);
        expect(repeat.status).toBe(409);
        expect(repeat.body.message).toMatch(/still being processed/);
        // Another staff user's same key is not held.
        expect((await post('/admin/orders', 'admin1', orderBody(world), k)).status).toBe(201);
      } finally {
        await client.query('rollback');
        await client.end();
      }
      expect((await post('/admin/orders', 'operatorA', orderBody(world), k)).status).toBe(201);
    },
  );

  it('20 parallel identical requests with one key create exactly one order', async () => {
    const before = await count('orders');
    const k = newKey();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('/admin/orders', 'operatorA', orderBody(world), k)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await count('orders')).toBe(before + 1);
  });
});

describe('Idempotency-Key on POST /admin/clients (a walk-in client)', () => {
  it('replays a client creation and creates one client, audited once', async () => {
    const [clients, audits] = [await count('clients'), await audited('client.create')];
    const k = newKey();
    const body = newClient('replay');
    const first = await post('/admin/clients', 'operatorA', body, k);
    const again = await post('/admin/clients', 'operatorA', body, k);
    expect(first.status, first.text).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await count('clients')).toBe(clients + 1);
    expect(await audited('client.create')).toBe(audits + 1);
    // Without the key the same email is refused as before.
    expect((await post('/admin/clients', 'operatorA', body)).status).toBe(400);
  });

  it('refuses the same key with a different body (422)', async () => {
    const k = newKey();
    expect((await post('/admin/clients', 'operatorA', newClient('first'), k)).status).toBe(201);
    const before = await count('clients');
    const other = await post('/admin/clients', 'operatorA', newClient('second'), k);
    expect(other.status).toBe(422);
    expect(await count('clients')).toBe(before);
  });

  it('is scoped to the staff user: another staff user with the same key string creates their own client', async () => {
    const before = await count('clients');
    const k = newKey();
    const mine = await post('/admin/clients', 'operatorA', newClient('mine'), k);
    const theirs = await post('/admin/clients', 'admin2', newClient('theirs'), k);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.branchId).toBe(world.branches.b2);
    expect(await count('clients')).toBe(before + 2);
  });
});
