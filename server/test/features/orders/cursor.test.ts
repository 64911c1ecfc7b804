import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody, placeOrder } from './support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

/**
 * Copies of one placed order, `n` at a time, with many equal sort values (so the id must break ties) and
 * creation times that differ by microseconds (which a millisecond cursor would lose).
 */
async function copyOrders(template: number, from: number, n: number) {
  await sql`
    insert into orders (hashed_id, branch_id, cashbox_id, currency1_id, currency2_id, client_amount, exchange_amount, status,
      operation_type, offer_id, user_id, created_at, updated_at)
    select 'copy-' || g, o.branch_id, o.cashbox_id, o.currency1_id, o.currency2_id, o.client_amount + (g % 7), o.exchange_amount,
      (array['ORDERINIT', 'CANCEL', 'SUCCESS'])[1 + g % 3], o.operation_type, o.offer_id, o.user_id,
      timestamptz '2025-03-01' + (g % 11) * interval '1.000001 second', timestamptz '2025-03-01' + (g % 5) * interval '1 minute'
    from orders o, generate_series(${from}::int, ${from + n - 1}::int) g where o.id = ${template}`.execute(server.db);
}

let template = 0;
beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  template = (await placeOrder(server, world.keys.branch, orderBody(world, { clientAmount: 100 }))).id;
  await placeOrder(
    server,
    world.keys.branch,
    orderBody(world, { cashbox: { id: world.exchanges.B }, clientAmount: 100 }),
  );
  await copyOrders(template, 1, 58);
});
afterAll(() => server?.close());

const list = (query: Record<string, string | number> = {}) =>
  call(server, 'GET', '/partner/orders', { key: world.keys.branch, query });
const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((r) => r.id);

async function walk(query: Record<string, string>, limit: number) {
  const seen: number[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const res = await list({ ...query, limit, ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    seen.push(...ids(res));
    cursor = res.body.meta.nextCursor;
    if (cursor === null) return seen;
  }
  throw new Error('the cursor never reached the end');
}

describe('GET /partner/orders?cursor', () => {
  const SORTS = [
    undefined,
    '[["id","DESC"]]',
    '[["createdAt","ASC"]]',
    '[["createdAt","DESC"]]',
    '[["clientAmount","DESC"]]',
    '[["status","DESC"],["createdAt","ASC"]]',
    '[["updatedAt","ASC"],["clientAmount","DESC"],["id","DESC"]]',
  ];
  it.each(SORTS)('walks every order exactly once in the order of sort %s', async (sort) => {
    const query: Record<string, string> = sort ? { sort } : {};
    const all = await list({ ...query, limit: 100 });
    expect(all.body.meta).toEqual({ total: 60, skip: 0, limit: 100, nextCursor: null });
    expect(await walk(query, 7)).toEqual(ids(all));
  });

  it('walks a filtered list, and the last page has no next cursor', async () => {
    const filter = JSON.stringify({ status: 'CANCEL' });
    const all = await list({ filter, limit: 100 });
    expect(all.body.data.length).toBeGreaterThan(5);
    expect(await walk({ filter, sort: '[["createdAt","DESC"]]' }, 5)).toEqual(
      ids(await list({ filter, sort: '[["createdAt","DESC"]]', limit: 100 })),
    );
    const exact = await list({ filter, limit: all.body.data.length });
    expect(exact.body.meta.nextCursor).toBeNull();
  });

  it('refuses a malformed, tampered or foreign cursor, and a cursor with skip, with 400 naming cursor', async () => {
    const first = await list({ limit: 2, sort: '[["createdAt","ASC"]]' });
    const cursor: string = first.body.meta.nextCursor;
    const [tag, ...values] = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const forge = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    const bad: Record<string, string | number>[] = [
      { cursor: 'not a cursor', sort: '[["createdAt","ASC"]]' },
      { cursor: forge([tag, 'not a time', values[1]]), sort: '[["createdAt","ASC"]]' },
      { cursor: forge([tag, values[0], 'abc']), sort: '[["createdAt","ASC"]]' },
      { cursor: forge([tag, values[0], null]), sort: '[["createdAt","ASC"]]' },
      { cursor: forge([tag, values[0]]), sort: '[["createdAt","ASC"]]' },
      { cursor, sort: '[["createdAt","DESC"]]' },
      { cursor },
      { cursor, sort: '[["createdAt","ASC"]]', skip: 2 },
    ];
    for (const query of bad) {
      const res = await list(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['cursor']);
    }
    const deliveries = await call(server, 'GET', '/admin/orders', {
      token: tokens.admin1,
      query: { cursor, sort: '[["createdAt","ASC"]]' },
    });
    expect(deliveries.status).toBe(200);
  });
});

describe('meta.total', () => {
  const counted = async (where: string) =>
    (
      await sql<{
        n: number;
      }>`select count(*)::int as n from orders where branch_id = ${world.branches.b1} and ${sql.raw(where)}`.execute(
        server.db,
      )
    ).rows[0].n;

  it('is exact for status and cashboxId filters after orders change status', async () => {
    await sql`update orders set status = 'SUCCESS' where id in (select id from orders where status = 'ORDERINIT' order by id limit 4)`.execute(
      server.db,
    );
    await sql`delete from orders where id = (select max(id) from orders where status = 'CANCEL')`.execute(server.db);
    for (const status of ['ORDERINIT', 'CANCEL', 'SUCCESS']) {
      const res = await list({ filter: JSON.stringify({ status }) });
      expect(res.body.meta.total).toBe(await counted(`status = '${status}'`));
      expect(res.body.meta.totalCapped).toBeUndefined();
    }
    const both = await list({ filter: JSON.stringify({ status: 'SUCCESS', cashboxId: world.exchanges.A }) });
    expect(both.body.meta.total).toBe(await counted(`status = 'SUCCESS' and cashbox_id = ${world.exchanges.A}`));
    expect((await list()).body.meta.total).toBe(await counted('true'));
  });

  it('stops counting at 10,000 for other filters and says so; stays exact for the counted ones', async () => {
    await copyOrders(template, 1000, 10_001);
    // A window with another filter has no counter; the operation type alone has one.
    const capped = await list({
      filter: JSON.stringify({ operationType: 'offer', createdAt: { gte: '2000-01-01T00:00:00Z' } }),
    });
    expect(capped.body.meta).toMatchObject({ total: 10_000, totalCapped: true });
    const offers = await list({ filter: JSON.stringify({ operationType: 'offer' }) });
    expect(offers.body.meta.total).toBe(await counted(`operation_type = 'offer'`));
    expect(offers.body.meta.totalCapped).toBeUndefined();
    const all = await list();
    expect(all.body.meta.total).toBe(await counted('true'));
    expect(all.body.meta.total).toBeGreaterThan(10_000);
    expect(all.body.meta.totalCapped).toBeUndefined();
    const few = await list({ filter: JSON.stringify({ createdAt: { lt: '2025-03-01T00:00:00.5Z' } }) });
    expect(few.body.meta.total).toBe(await counted(`created_at < '2025-03-01T00:00:00.5Z'`));
    expect(few.body.meta.totalCapped).toBeUndefined();
  });
});

describe('cursor paging of the back office lists with a fixed order', () => {
  async function walkAdmin(path: string, token: string, limit: number) {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const res: { status: number; body: any } = await call(server, 'GET', path, {
        token,
        query: { limit, ...(cursor ? { cursor } : {}) },
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((r: { id: unknown }) => String(r.id)));
      cursor = res.body.meta.nextCursor;
      if (cursor === null) return seen;
    }
    throw new Error('the cursor never reached the end');
  }

  it.each([
    ['/admin/clients', 'admin1'],
    ['/admin/api-keys', 'superadmin'],
  ] as const)('%s walks like one long page', async (path, who) => {
    if (path === '/admin/clients') {
      await server.db
        .insertInto('clients')
        .values(
          Array.from({ length: 7 }, (_, i) => ({
            branch_id: world.branches.b1,
            first_name: `C${i}`,
            last_name: 'X',
            email: `c${i}@example.com`,
            phone: `+1000000010${i}`,
            updated_at: new Date(),
          })),
        )
        .execute();
    }
    const all = await call(server, 'GET', path, { token: tokens[who], query: { limit: 100 } });
    expect(all.body.data.length).toBeGreaterThan(4);
    expect(await walkAdmin(path, tokens[who], 2)).toEqual(all.body.data.map((r: { id: unknown }) => String(r.id)));
  });
});
