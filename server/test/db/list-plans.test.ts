import { sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/database.js';
import { COUNT_CAP } from '../../src/db/list.js';
import { runsPrepared } from '../../src/db/prepared.js';
import type { Scope } from '../../src/db/scope.js';
import { listAuditRows } from '../../src/features/audit/repository.js';
import { auditListParams } from '../../src/features/audit/admin-routes.js';
import { listClients } from '../../src/features/clients/repository.js';
import { CLIENT_LIST } from '../../src/features/clients/partner-routes.js';
import { listDeliveries } from '../../src/features/delivery/repository.js';
import { listOrders } from '../../src/features/orders/repository.js';
import { ORDER_LIST } from '../../src/features/orders/partner-routes.js';
import { DELIVERY_LIST } from '../../src/features/webhooks/partner-routes.js';
import { parseListQuery } from '../../src/http/list-query.js';
import { usingPostgres } from '../helpers/database.js';
import { statementsSent } from '../helpers/statements.js';
import { startWorld } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import type { World } from '../helpers/world.js';

/**
 * The orders list's statements, planned as the service runs them, read no more of the table than a
 * page and its capped count need. A statement the service prepares (db/prepared.ts) gets a generic plan after
 * five executions, so it is explained as one (plan_cache_mode = force_generic_plan, PREPARE, EXPLAIN EXECUTE);
 * one it plans per execution is explained with its values. EXPLAIN ANALYZE counts the rows each scan of orders
 * read: a plan that reads the branch and sorts it, or walks an index over the whole branch, reads 150,000.
 * The other large lists (a webhook's deliveries, clients, the audit log) are checked alike on 100,000 rows each.
 * PostgreSQL only (the service prepares nothing on PGlite).
 */
const ORDERS = 200_000;
const OTHERS = 100_000;
/** A page (21 rows) and the capped count (COUNT_CAP + 1) with room for what a filter of an index range drops. */
const READ_BUDGET = 2 * (COUNT_CAP + 1);

let server: TestServer;
let world: World;
let client: pg.Client;
let userId = 0;
let webhookId = '';
let staffId = 0;

beforeAll(async () => {
  if (!usingPostgres) return;
  ({ server, world } = await startWorld());
  userId = (
    await server.db
      .insertInto('clients')
      .values({
        branch_id: world.branches.b1,
        first_name: 'A',
        last_name: 'B',
        email: 'a@example.com',
        phone: '+10000000001',
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const offer = await server.db
    .selectFrom('offers')
    .select(['id', 'currency1_id', 'currency2_id'])
    .where('exchange_id', '=', world.exchanges.A)
    .executeTakeFirstOrThrow();
  // Three orders in four in branch 1, over its two exchanges; six statuses; five minutes apart from 2024-01-01 to
  // 2025-11-25; a client on one in fifty, one in ten an order on an offer.
  await sql`
    insert into orders (hashed_id, branch_id, cashbox_id, currency1_id, currency2_id, client_amount, exchange_amount, status,
      operation_type, offer_id, user_id, created_at, updated_at)
    select 'seed-' || g, case when g % 4 = 0 then ${world.branches.b2}::int else ${world.branches.b1}::int end,
      case when g % 4 = 0 then ${world.exchanges.C}::int when g % 3 = 0 then ${world.exchanges.B}::int else ${world.exchanges.A}::int end,
      ${offer.currency1_id}::int, ${offer.currency2_id}::int, 1 + (g::bigint * 7919) % 100000, 1 + (g::bigint * 104729) % 90000,
      (array['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT', 'SUCCESS', 'CANCEL'])[1 + g % 6],
      case when g % 10 = 0 then 'offer' else 'finop' end, case when g % 10 = 0 then ${offer.id}::int end, case when g % 50 = 0 then ${userId}::int end,
      timestamptz '2024-01-01' + g * interval '5 minutes', timestamptz '2024-01-01' + g * interval '5 minutes' + (g % 13) * interval '1 hour'
    from generate_series(1, ${ORDERS}::int) g`.execute(server.db);
  webhookId = (
    await server.db
      .insertInto('webhooks')
      .values({
        branch_id: world.branches.b1,
        url: 'https://partner.example/hook',
        events: ['order.created'],
        secret_key: 's'.repeat(64),
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  staffId = world.staff.admin1!.id;
  // A webhook's log over 70 days, one delivery in ten failed, one in five about an offer; clients and audit rows of
  // branch 1 a minute apart from 2024-01-01 (one audit row in five by the command line, four entity types, three verbs).
  await sql`
    insert into webhook_deliveries (id, webhook_id, event, body, status, attempts, created_at, updated_at)
    select gen_random_uuid(), ${webhookId}::uuid, case when g % 5 = 0 then 'offer.updated' else 'order.created' end, '{}',
      case when g % 10 = 0 then 'failed' else 'succeeded' end, 1 + g % 6, now() - g * interval '1 minute', now() - g * interval '1 minute' + (g % 13) * interval '1 minute'
    from generate_series(1, ${OTHERS}::int) g`.execute(server.db);
  await sql`
    insert into clients (branch_id, first_name, last_name, email, phone, created_at, updated_at)
    select ${world.branches.b1}::int, 'Client', 'No ' || g, 'client-' || g || '@example.com', '+1' || lpad(g::text, 9, '0'),
      timestamptz '2024-01-01' + g * interval '1 minute', timestamptz '2024-01-01' + g * interval '1 minute' + (g % 13) * interval '1 hour'
    from generate_series(1, ${OTHERS}::int) g`.execute(server.db);
  await sql`
    insert into audit_log (actor, staff_user_id, role, action, entity_type, entity_id, branch_id, created_at)
    select case when g % 5 = 0 then 'cli' else 'staff' end, case when g % 5 = 0 then null else ${staffId}::int end, 'admin',
      t.type || '.' || (array['create', 'update', 'delete'])[1 + g % 3], t.type, (g % 5000)::text, ${world.branches.b1}::int,
      timestamptz '2024-01-01' + g * interval '1 minute'
    from generate_series(1, ${OTHERS}::int) g, lateral (select (array['exchange', 'offer', 'staff', 'webhook'])[1 + g % 4] as type) t`.execute(
    server.db,
  );
  await sql`vacuum analyze orders, webhook_deliveries, clients, audit_log`.execute(server.db);
  client = new pg.Client({ connectionString: server.database.url });
  await client.connect();
}, 300_000);
afterAll(async () => {
  await client?.end();
  await server?.close();
});

const statementsOf = (run: (db: Executor) => Promise<unknown>): Promise<CompiledQuery[]> =>
  statementsSent(server.db, run);

const literal = (v: unknown): string => {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return client.escapeLiteral(v.toISOString());
  if (Array.isArray(v)) return client.escapeLiteral(`{${v.join(',')}}`);
  // As pg sends them: an object as its JSON, anything else as its text.
  if (typeof v === 'object') return client.escapeLiteral(JSON.stringify(v));
  return client.escapeLiteral(String(v as string | bigint));
};

/** The plan PostgreSQL runs the statement with, when the service runs it, after five executions: EXPLAIN ANALYZE. */
async function planAsRun(q: CompiledQuery): Promise<{ generic: boolean; plan: unknown }> {
  for (let i = 0; i < 6; i++) await server.db.executeQuery(q);
  if (!runsPrepared(q.sql, q.parameters)) {
    const { rows } = await client.query(`explain (analyze, format json) ${q.sql}`, [...q.parameters]);
    return { generic: false, plan: rows[0]['QUERY PLAN'] };
  }
  await client.query('set plan_cache_mode = force_generic_plan');
  await client.query(`prepare listed as ${q.sql}`);
  try {
    const { rows } = await client.query(
      `explain (analyze, format json) execute listed(${q.parameters.map(literal).join(', ')})`,
    );
    return { generic: true, plan: rows[0]['QUERY PLAN'] };
  } finally {
    await client.query('deallocate listed');
    await client.query('reset plan_cache_mode');
  }
}

/** The scans of a large table (or its indexes) in a plan that read more than READ_BUDGET rows, with what they read. */
function wideScans(plan: unknown, out: string[] = []): string[] {
  if (Array.isArray(plan)) plan.forEach((p) => wideScans(p, out));
  else if (plan && typeof plan === 'object') {
    const node = plan as Record<string, unknown> & { 'Index Name'?: string };
    const large = LARGE.some(
      (t) => node['Relation Name'] === t || String(node['Index Name'] ?? '').startsWith(`${t}_`),
    );
    if (large && typeof node['Actual Rows'] === 'number') {
      const loops = Number(node['Actual Loops'] ?? 1);
      const read =
        (Number(node['Actual Rows']) +
          Number(node['Rows Removed by Filter'] ?? 0) +
          Number(node['Rows Removed by Index Recheck'] ?? 0)) *
        loops;
      if (read > READ_BUDGET)
        out.push(`${String(node['Node Type'])} ${String(node['Index Name'] ?? node['Relation Name'])}: ${read} rows`);
    }
    Object.values(node).forEach((v) => wideScans(v, out));
  }
  return out;
}

const LARGE = ['orders', 'webhook_deliveries', 'clients', 'audit_log'];

/** Fails with the plan of each statement `run` sends that reads more of a large table than READ_BUDGET. */
async function expectBoundedPlans(run: (db: Executor) => Promise<unknown>): Promise<void> {
  const sent = await statementsOf(run);
  expect(sent.length).toBeGreaterThan(0);
  for (const q of sent) {
    const { generic, plan } = await planAsRun(q);
    expect(wideScans(plan), `${generic ? 'generic' : 'custom'} plan of ${q.sql}`).toEqual([]);
  }
}

const BEFORE = '2025-01-01T00:00:00Z';
const LAST_WEEK = '2025-11-18T00:00:00Z';
type Case = [name: string, filter: Record<string, unknown>, sort: [string, 'ASC' | 'DESC'][] | undefined];
const CASES: Case[] = [
  // The shapes.
  ['createdAt before T, newest first', { createdAt: { lt: BEFORE } }, [['createdAt', 'DESC']]],
  ['clientAmount, largest first', {}, [['clientAmount', 'DESC']]],
  ["a cashbox's last week, newest first", { cashboxId: 'B', createdAt: { gte: LAST_WEEK } }, [['createdAt', 'DESC']]],
  ['status ORDERINIT, last updated first', { status: 'ORDERINIT' }, [['updatedAt', 'DESC']]],
  // Each sort, each filter.
  ...ORDER_LIST.sorts.flatMap((f): Case[] => [
    [`sort ${f} ASC`, {}, [[f, 'ASC']]],
    [`sort ${f} DESC`, {}, [[f, 'DESC']]],
  ]),
  ['status', { status: 'CANCEL' }, undefined],
  ['hashedId', { hashedId: 'seed-150001' }, undefined],
  ['cashboxId', { cashboxId: 'B' }, undefined],
  ['userId', { userId: 'client' }, undefined],
  ['operationType offer', { operationType: 'offer' }, undefined],
  ['operationType finop', { operationType: 'finop' }, undefined],
  // A window of createdAt in createdAt order (the shape partners poll), and in id order: there the primary key's walk
  // starts at the window's first day (order_days), not at the branch's first order.
  ['createdAt since last week, oldest first', { createdAt: { gte: LAST_WEEK } }, [['createdAt', 'ASC']]],
  ['createdAt since last week', { createdAt: { gte: LAST_WEEK } }, undefined],
  ['createdAt before T, last id first', { createdAt: { lt: BEFORE } }, [['id', 'DESC']]],
  [
    'createdAt in a month, last id first',
    { createdAt: { gte: '2024-06-01T00:00:00Z', lt: '2024-07-01T00:00:00Z' } },
    [['id', 'DESC']],
  ],
  ['createdAt before T', { createdAt: { lt: BEFORE } }, undefined],
];

describe.skipIf(!usingPostgres)(
  `the orders list's plans as the service runs them, on ${ORDERS.toLocaleString('en')} orders`,
  () => {
    const scopes: [string, () => Scope][] = [
      ['branch', () => ({ branchId: world.branches.b1, exchangeIds: null })],
      [
        'operator of both exchanges',
        () => ({ branchId: world.branches.b1, exchangeIds: [world.exchanges.A, world.exchanges.B] }),
      ],
    ];
    const cases = scopes.flatMap(([who, scope]) =>
      CASES.map(([name, filter, sort]) => [`${who}: ${name}`, scope, filter, sort] as const),
    );

    it.each(cases)(
      '%s: the first page and the next read at most a page and the capped count',
      async (_, scopeOf, rawFilter, sort) => {
        const filter = Object.fromEntries(
          Object.entries(rawFilter).map(([k, v]) => [k, v === 'B' ? world.exchanges.B : v === 'client' ? userId : v]),
        );
        const query = { filter: JSON.stringify(filter), sort: sort ? JSON.stringify(sort) : undefined, limit: 20 };
        const scope = scopeOf();
        const first = await listOrders(server.db, scope, parseListQuery(query, ORDER_LIST));
        await expectBoundedPlans((db) => listOrders(db, scope, parseListQuery(query, ORDER_LIST)));
        if (first.nextCursor)
          await expectBoundedPlans((db) =>
            listOrders(db, scope, parseListQuery({ ...query, cursor: first.nextCursor! }, ORDER_LIST)),
          );
      },
    );
  },
);

describe.skipIf(!usingPostgres)(
  `the other large lists' plans as the service runs them, on ${OTHERS.toLocaleString('en')} rows`,
  () => {
    const weekAgo = () => new Date(Date.now() - 7 * 86_400_000).toISOString();
    const deliveries: [string, Record<string, unknown>, [string, 'ASC' | 'DESC'][]][] = [
      ['newest first', {}, [['createdAt', 'DESC']]],
      ...DELIVERY_LIST.sorts.map((f): [string, Record<string, unknown>, [string, 'ASC' | 'DESC'][]] => [
        `sort ${f} DESC`,
        {},
        [[f, 'DESC']],
      ]),
      ['status failed', { status: 'failed' }, [['createdAt', 'DESC']]],
      ['event offer.updated', { event: 'offer.updated' }, [['createdAt', 'DESC']]],
      ['created in the last week', { createdAt: { gte: 'week' } }, [['createdAt', 'DESC']]],
    ];
    it.each(deliveries)("a webhook's deliveries, %s", async (_, rawFilter, sort) => {
      const filter = Object.fromEntries(
        Object.entries(rawFilter).map(([k, v]) => [k, k === 'createdAt' ? { gte: weekAgo() } : v]),
      );
      await expectBoundedPlans((db) =>
        listDeliveries(
          db,
          webhookId,
          parseListQuery({ filter: JSON.stringify(filter), sort: JSON.stringify(sort), limit: 20 }, DELIVERY_LIST),
        ),
      );
    });

    const clients: [string, Record<string, unknown>, [string, 'ASC' | 'DESC'][] | undefined][] = [
      ['in id order', {}, undefined],
      ...CLIENT_LIST.sorts.map((f): [string, Record<string, unknown>, [string, 'ASC' | 'DESC'][]] => [
        `sort ${f} DESC`,
        {},
        [[f, 'DESC']],
      ]),
      ['by email', { email: 'client-50000@example.com' }, undefined],
      ['by phone', { phone: '+1000050000' }, undefined],
    ];
    it.each(clients)("a branch's clients, %s", async (_, filter, sort) => {
      const scope = { branchId: world.branches.b1, exchangeIds: null };
      await expectBoundedPlans((db) =>
        listClients(
          db,
          scope,
          parseListQuery(
            { filter: JSON.stringify(filter), sort: sort ? JSON.stringify(sort) : undefined, limit: 20 },
            CLIENT_LIST,
          ),
        ),
      );
    });

    const audit: [string, Record<string, unknown>][] = [
      ['newest first', {}],
      ['oldest first', { sort: 'oldest' }],
      ['changes to offers', { entityType: 'offer' }],
      ['changes to one offer', { entityType: 'offer', entityId: '1001' }],
      ['by the command line', { actor: 'cli' }],
      ['by a staff user', { staffUserId: 'admin' }],
      ['one action', { action: 'offer.update' }],
      ['since T, oldest first', { from: '2024-02-15T00:00:00Z', sort: 'oldest' }],
      ['before T', { to: '2024-02-15T00:00:00Z' }],
    ];
    it.each(audit)("a branch's audit log, %s", async (_, query) => {
      const params = auditListParams({
        ...query,
        staffUserId: query.staffUserId === 'admin' ? staffId : undefined,
        limit: 20,
      } as Parameters<typeof auditListParams>[0]);
      await expectBoundedPlans((db) => listAuditRows(db, { branchId: world.branches.b1 }, params));
    });
  },
);
