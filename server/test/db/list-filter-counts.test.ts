import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP, type ListParams } from '../../src/db/list.js';
import { listAuditRows } from '../../src/features/audit/repository.js';
import { auditListParams } from '../../src/features/audit/admin-routes.js';
import { listDeliveries } from '../../src/features/delivery/repository.js';
import { listOrders } from '../../src/features/orders/repository.js';
import { ORDER_LIST } from '../../src/features/orders/partner-routes.js';
import { DELIVERY_LIST } from '../../src/features/webhooks/partner-routes.js';
import { parseListQuery } from '../../src/http/list-query.js';
import { usingPostgres } from '../helpers/database.js';
import { startWorld } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import type { World } from '../helpers/world.js';

/**
 * The counters of migration 016: a filter on an equality the list counts (orders' operation type, deliveries' status
 * and event, the audit log's actor, action and entity type) is exact past the cap, also after updates and deletes; a
 * window of createdAt is exact up to the cap and capped past it, whatever day its edges fall on; and the deliveries'
 * and audit log's counters make no transaction wait for another, so several statements of two transactions that
 * cross cannot deadlock.
 */
let server: TestServer;
let world: World;
let webhookId = '';
let otherWebhookId = '';
const MANY = 10_050;
const HOUR = 3_600_000;

const count = async (query: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.raw(query)}`.execute(server.db)).rows[0].n;
/** What a list's total is to say for `n` matches. */
const expected = (n: number) =>
  n > COUNT_CAP ? { total: COUNT_CAP, totalCapped: true } : { total: n, totalCapped: false };
const totals = (page: { total: number; totalCapped: boolean }) => ({
  total: page.total,
  totalCapped: page.totalCapped,
});

beforeAll(async () => {
  ({ server, world } = await startWorld());
  const b1 = world.branches.b1;
  const offer = await server.db
    .selectFrom('offers')
    .select(['id', 'currency1_id', 'currency2_id'])
    .where('exchange_id', '=', world.exchanges.A)
    .executeTakeFirstOrThrow();
  // Orders 7 minutes apart from 2024-01-01 (so a day's edge falls between two), one in twenty on an offer.
  await sql`
    insert into orders (hashed_id, branch_id, cashbox_id, currency1_id, currency2_id, client_amount, exchange_amount, status, operation_type, offer_id, created_at, updated_at)
    select 'count-' || g, ${b1}::int, ${world.exchanges.A}::int, ${offer.currency1_id}::int, ${offer.currency2_id}::int, 10, 9,
      (array['ORDERINIT', 'CANCEL'])[1 + g % 2], case when g % 20 = 0 then 'offer' else 'finop' end, case when g % 20 = 0 then ${offer.id}::int end,
      timestamptz '2024-01-01' + g * interval '7 minutes', timestamptz '2024-01-01' + g * interval '7 minutes'
    from generate_series(1, ${MANY + 600}::int) g`.execute(server.db);
  const hooks = await server.db
    .insertInto('webhooks')
    .values(
      [1, 2].map((i) => ({
        branch_id: b1,
        url: `https://partner.example/count/${i}`,
        events: ['order.created'],
        secret_key: 's'.repeat(64),
        updated_at: new Date(),
      })),
    )
    .returning('id')
    .execute();
  [webhookId, otherWebhookId] = hooks.map((h) => h.id);
  // One statement for both webhooks' logs, 3 minutes apart back from now; statuses and events mixed.
  await sql`
    insert into webhook_deliveries (webhook_id, event, body, status, attempts, created_at, updated_at)
    select case when g % 4 = 0 then ${otherWebhookId}::uuid else ${webhookId}::uuid end, case when g % 5 = 0 then 'offer.updated' else 'order.created' end, '{}',
      (array['pending', 'succeeded', 'failed'])[1 + g % 3], 1, now() - g * interval '3 minutes', now()
    from generate_series(1, ${2 * MANY}::int) g`.execute(server.db);
  await sql`
    insert into audit_log (actor, staff_user_id, role, action, entity_type, entity_id, branch_id, created_at)
    select case when g % 5 = 0 then 'cli' else 'staff' end, case when g % 5 = 0 then null else ${world.staff.admin1!.id}::int end, 'admin',
      t.type || '.' || (array['create', 'update'])[1 + g % 2], t.type, (g % 100)::text, case when g % 7 = 0 then null else ${b1}::int end,
      timestamptz '2024-01-01' + g * interval '7 minutes'
    from generate_series(1, ${2 * MANY}::int) g, lateral (select (array['offer', 'exchange'])[1 + g % 2] as type) t`.execute(
    server.db,
  );
}, 120_000);
afterAll(() => server?.close());

const branchScope = () => ({ branchId: world.branches.b1, exchangeIds: null });
const orders = (query: Record<string, unknown>) =>
  listOrders(
    server.db,
    branchScope(),
    parseListQuery({ limit: 5, ...query, filter: JSON.stringify(query.filter ?? {}) }, ORDER_LIST),
  );
const deliveries = (filter: Record<string, unknown>, id = webhookId) =>
  listDeliveries(server.db, id, parseListQuery({ limit: 5, filter: JSON.stringify(filter) }, DELIVERY_LIST));
const audit = (query: Record<string, unknown>) =>
  listAuditRows(
    server.db,
    { branchId: world.branches.b1 },
    auditListParams({ limit: 5, ...query } as Parameters<typeof auditListParams>[0]) as ListParams,
  );

describe('equality filters the lists count', () => {
  it('counts orders by operation type exactly past the cap, alone and with status, and follows updates and deletes', async () => {
    const finop = await count(`orders where branch_id = ${world.branches.b1} and operation_type = 'finop'`);
    expect(finop).toBeGreaterThan(COUNT_CAP);
    expect(totals(await orders({ filter: { operationType: 'finop' } }))).toEqual({ total: finop, totalCapped: false });
    expect((await orders({ filter: { operationType: 'offer', status: 'CANCEL' } })).total).toBe(
      await count(`orders where branch_id = ${world.branches.b1} and operation_type = 'offer' and status = 'CANCEL'`),
    );
    await sql`update orders set status = 'CANCEL' where hashed_id in ('count-1', 'count-3', 'count-20')`.execute(
      server.db,
    );
    await sql`delete from orders where hashed_id in ('count-5', 'count-40')`.execute(server.db);
    expect((await orders({ filter: { operationType: 'finop' } })).total).toBe(finop - 1);
    expect((await orders({ filter: { operationType: 'offer', status: 'CANCEL' } })).total).toBe(
      await count(`orders where branch_id = ${world.branches.b1} and operation_type = 'offer' and status = 'CANCEL'`),
    );
  });

  it("counts a webhook's deliveries by status and event exactly past the cap, as their status changes", async () => {
    const check = async () => {
      for (const filter of [
        {},
        { status: 'failed' },
        { status: 'pending' },
        { event: 'order.created' },
        { status: 'succeeded', event: 'offer.updated' },
      ]) {
        const where = Object.entries(filter)
          .map(([k, v]) => ` and ${k} = '${v}'`)
          .join('');
        expect((await deliveries(filter)).total, JSON.stringify(filter)).toBe(
          await count(`webhook_deliveries where webhook_id = '${webhookId}'${where}`),
        );
      }
    };
    expect(
      await count(`webhook_deliveries where webhook_id = '${webhookId}' and event = 'order.created'`),
    ).toBeGreaterThan(COUNT_CAP);
    await check();
    await sql`update webhook_deliveries set status = 'succeeded' where status = 'pending' and event = 'offer.updated'`.execute(
      server.db,
    );
    await sql`update webhook_deliveries set attempts = attempts + 1 where status = 'failed'`.execute(server.db);
    await sql`delete from webhook_deliveries where id in (select id from webhook_deliveries where status = 'failed' order by id limit 9)`.execute(
      server.db,
    );
    await check();
  });

  it("counts a branch's audit log by actor, action and entity type exactly past the cap", async () => {
    for (const [query, where] of [
      [{ actor: 'staff' }, "actor = 'staff'"],
      [{ entityType: 'offer' }, "entity_type = 'offer'"],
      [{ action: 'exchange.update' }, "action = 'exchange.update'"],
      [{ actor: 'cli', entityType: 'exchange' }, "actor = 'cli' and entity_type = 'exchange'"],
    ] as const) {
      const n = await count(`audit_log where branch_id = ${world.branches.b1} and ${where}`);
      expect(totals(await audit(query)), where).toEqual({ total: n, totalCapped: false });
    }
    expect(await count(`audit_log where branch_id = ${world.branches.b1} and actor = 'staff'`)).toBeGreaterThan(
      COUNT_CAP,
    );
  });
});

describe('a window of createdAt', () => {
  const at = (ms: number) => new Date(ms).toISOString();
  const start = Date.parse('2024-01-01T00:00:00Z');
  // Edges inside a day, on midnight, within one day, across the cap, and before and after every row.
  const windows: Record<string, string>[] = [
    { gte: at(start + 30 * 24 * HOUR + 5 * HOUR + 123) },
    { gt: at(start + 10 * 24 * HOUR) },
    { lt: at(start + 20 * 24 * HOUR + 13 * HOUR) },
    { lte: at(start + 3 * 24 * HOUR) },
    { gte: at(start + 2 * 24 * HOUR + 7 * HOUR), lt: at(start + 2 * 24 * HOUR + 9 * HOUR) },
    { gte: at(start + 5 * 24 * HOUR + 23 * HOUR), lte: at(start + 40 * 24 * HOUR + HOUR) },
    { gte: at(start + 24 * HOUR + 1), lt: at(start + 60 * 24 * HOUR - 1) },
    { gte: at(start - 24 * HOUR) },
    { lt: at(start + 365 * 24 * HOUR) },
  ];
  const SQL_OP = { gte: '>=', gt: '>', lte: '<=', lt: '<' } as Record<string, string>;
  const where = (w: Record<string, string>) =>
    Object.entries(w)
      .map(([op, v]) => ` and created_at ${SQL_OP[op]} '${v}'`)
      .join('');

  it.each(windows)(
    'counts orders, deliveries and audit rows of %o exactly up to the cap, capped past it',
    async (w) => {
      expect(totals(await orders({ filter: { createdAt: w } }))).toEqual(
        expected(await count(`orders where branch_id = ${world.branches.b1}${where(w)}`)),
      );
      // The same window over the deliveries' last 29 days.
      const recent = Object.fromEntries(
        Object.entries(w).map(([op, v]) => [op, at(Date.now() - 30 * 24 * HOUR + (Date.parse(v) - start) / 12)]),
      );
      expect(totals(await deliveries({ createdAt: recent }))).toEqual(
        expected(await count(`webhook_deliveries where webhook_id = '${webhookId}'${where(recent)}`)),
      );
      const period = { from: w.gte ?? w.gt, to: w.lt ?? w.lte };
      const asPeriod = { ...(period.from ? { gte: period.from } : {}), ...(period.to ? { lt: period.to } : {}) };
      expect(totals(await audit(period))).toEqual(
        expected(await count(`audit_log where branch_id = ${world.branches.b1}${where(asPeriod)}`)),
      );
    },
  );

  it('reads an id-ordered page of a window from its first day on, whatever the order of ids and times', async () => {
    // An order created late with an early time, and one early with a late time: the id bound of the window keeps both.
    await sql`update orders set created_at = timestamptz '2024-01-20T12:00:00Z' where hashed_id = 'count-10000'`.execute(
      server.db,
    );
    await sql`update orders set created_at = timestamptz '2024-02-20T12:00:00Z' where hashed_id = 'count-7'`.execute(
      server.db,
    );
    for (const [createdAt, dir] of [
      [{ gte: '2024-01-20T00:00:00Z' }, 'ASC'],
      [{ lt: '2024-01-21T00:00:00Z' }, 'DESC'],
      [{ gte: '2024-02-20T11:00:00Z', lt: '2024-02-20T13:00:00Z' }, 'ASC'],
    ] as const) {
      const page = await orders({ filter: { createdAt }, sort: JSON.stringify([['id', dir]]), limit: 100 });
      const { rows } = await sql<{ id: number }>`select id from orders where branch_id = ${world.branches.b1}
        ${sql.raw(where(createdAt as Record<string, string>))} order by id ${sql.raw(dir)} limit 100`.execute(
        server.db,
      );
      expect(
        page.rows.map((r) => r.id),
        JSON.stringify(createdAt),
      ).toEqual(rows.map((r) => r.id));
    }
  });
});

describe.skipIf(!usingPostgres)('concurrent writers of the deliveries and the audit log (PostgreSQL)', () => {
  it('make no transaction wait for another, and two that cross statement by statement stay exact', async () => {
    const connect = async () => {
      const c = new pg.Client({ connectionString: server.database.url });
      await c.connect();
      // A counter that made a transaction wait for another would fail here instead of hanging.
      await c.query("set lock_timeout = '3s'");
      return c;
    };
    const [a, b] = [await connect(), await connect()];
    // Each transaction moves deliveries of its own (a from the first ids, b from the last), as two workers do.
    const move = (c: pg.Client, hook: string, from: string, to: string) =>
      c.query(
        `update webhook_deliveries set status = $3 where id in (select id from webhook_deliveries where webhook_id = $1 and status = $2
        order by id ${c === a ? 'asc' : 'desc'} limit 5)`,
        [hook, from, to],
      );
    const log = (c: pg.Client, action: string) =>
      c.query(
        `insert into audit_log (actor, role, action, entity_type, entity_id, branch_id) values ('cli', 'cli', $1, split_part($1, '.', 1), '1', $2)`,
        [action, world.branches.b1],
      );
    try {
      await a.query('begin');
      await b.query('begin');
      // The worker's pattern: successes of one webhook and failures of another, in opposite orders.
      await move(a, webhookId, 'pending', 'succeeded');
      await move(b, otherWebhookId, 'pending', 'failed');
      await move(a, otherWebhookId, 'pending', 'succeeded');
      await move(b, webhookId, 'pending', 'failed');
      await log(a, 'offer.update');
      await log(b, 'exchange.update');
      await log(a, 'exchange.update');
      await log(b, 'offer.update');
      await a.query('commit');
      await b.query('commit');
    } finally {
      await a.end();
      await b.end();
    }
    for (const id of [webhookId, otherWebhookId]) {
      for (const status of ['pending', 'succeeded', 'failed']) {
        expect((await deliveries({ status }, id)).total).toBe(
          await count(`webhook_deliveries where webhook_id = '${id}' and status = '${status}'`),
        );
      }
    }
    for (const action of ['offer.update', 'exchange.update']) {
      expect((await audit({ action })).total).toBe(
        await count(`audit_log where branch_id = ${world.branches.b1} and action = '${action}'`),
      );
    }
    // A group keeps a row for each transaction that wrote it at once, not one per statement.
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from webhook_delivery_counts group by webhook_id, status, event order by 1 desc limit 1`.execute(
      server.db,
    );
    expect(rows[0].n).toBeLessThanOrEqual(2);
  });
});
