import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/database.js';
import { COUNT_CAP } from '../../src/db/list.js';
import { runsPrepared } from '../../src/db/prepared.js';
import type { Scope } from '../../src/db/scope.js';
import { listOrders } from '../../src/features/orders/repository.js';
import { ORDER_LIST } from '../../src/features/orders/routes.js';
import { parseListQuery } from '../../src/http/list-query.js';
import { usingPostgres } from '../helpers/database.js';
import { startWorld } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import type { World } from '../helpers/world.js';

/**
 * Issue 39: the orders list's statements, planned as the service runs them, read no more of the table than a
 * page and its capped count need. A statement the service prepares (db/prepared.ts) gets a generic plan after
 * five executions, so it is explained as one (plan_cache_mode = force_generic_plan, PREPARE, EXPLAIN EXECUTE);
 * one it plans per execution is explained with its values. EXPLAIN ANALYZE counts the rows each scan of orders
 * read: a plan that reads the branch and sorts it, or walks an index over the whole branch, reads 150,000.
 * PostgreSQL only (the service prepares nothing on PGlite).
 */
const ORDERS = 200_000;
/** A page (21 rows) and the capped count (COUNT_CAP + 1) with room for what a filter of an index range drops. */
const READ_BUDGET = 2 * (COUNT_CAP + 1);

let server: TestServer;
let world: World;
let client: pg.Client;
let userId = 0;

beforeAll(async () => {
  if (!usingPostgres) return;
  ({ server, world } = await startWorld());
  userId = (await server.db.insertInto('clients').values({ branch_id: world.branches.b1, first_name: 'A', last_name: 'B', email: 'a@example.com', phone: '+10000000001', updated_at: new Date() })
    .returning('id').executeTakeFirstOrThrow()).id;
  const offer = await server.db.selectFrom('offers').select(['id', 'currency1_id', 'currency2_id']).where('exchange_id', '=', world.exchanges.A).executeTakeFirstOrThrow();
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
  await sql`vacuum analyze orders`.execute(server.db);
  client = new pg.Client({ connectionString: server.database.url });
  await client.connect();
}, 120_000);
afterAll(async () => {
  await client?.end();
  await server?.close();
});

/** The statements a list call sends, captured on their way to the database. */
async function statementsOf(run: (db: Executor) => Promise<unknown>): Promise<CompiledQuery[]> {
  const sent: CompiledQuery[] = [];
  const db = new Proxy(server.db, {
    get(target, prop) {
      if (prop === 'executeQuery') return (q: CompiledQuery) => { sent.push(q); return target.executeQuery(q); };
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  await run(db);
  return sent;
}

const literal = (v: unknown): string => {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return client.escapeLiteral(v.toISOString());
  if (Array.isArray(v)) return client.escapeLiteral(`{${v.join(',')}}`);
  return client.escapeLiteral(String(v));
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
    const { rows } = await client.query(`explain (analyze, format json) execute listed(${q.parameters.map(literal).join(', ')})`);
    return { generic: true, plan: rows[0]['QUERY PLAN'] };
  } finally {
    await client.query('deallocate listed');
    await client.query('reset plan_cache_mode');
  }
}

/** The scans of orders (table or index) in a plan that read more than READ_BUDGET rows, with what they read. */
function wideScans(plan: unknown, out: string[] = []): string[] {
  if (Array.isArray(plan)) plan.forEach((p) => wideScans(p, out));
  else if (plan && typeof plan === 'object') {
    const node = plan as Record<string, unknown>;
    const onOrders = node['Relation Name'] === 'orders' || String(node['Index Name'] ?? '').startsWith('orders_');
    if (onOrders && typeof node['Actual Rows'] === 'number') {
      const loops = Number(node['Actual Loops'] ?? 1);
      const read = (Number(node['Actual Rows']) + Number(node['Rows Removed by Filter'] ?? 0) + Number(node['Rows Removed by Index Recheck'] ?? 0)) * loops;
      if (read > READ_BUDGET) out.push(`${String(node['Node Type'])} ${String(node['Index Name'] ?? node['Relation Name'])}: ${read} rows`);
    }
    Object.values(node).forEach((v) => wideScans(v, out));
  }
  return out;
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
  ...ORDER_LIST.sorts.flatMap((f): Case[] => [[`sort ${f} ASC`, {}, [[f, 'ASC']]], [`sort ${f} DESC`, {}, [[f, 'DESC']]]]),
  ['status', { status: 'CANCEL' }, undefined],
  ['hashedId', { hashedId: 'seed-150001' }, undefined],
  ['cashboxId', { cashboxId: 'B' }, undefined],
  ['userId', { userId: 'client' }, undefined],
  ['operationType offer', { operationType: 'offer' }, undefined],
  ['operationType finop', { operationType: 'finop' }, undefined],
  // A window of createdAt is read in createdAt order (the shape partners poll). Sorted by id instead, no plan is
  // bounded when ids follow time, as they do: the primary key walks every order on the other side of the window's
  // edge, the window's index reads the whole window (docs/scaling.md).
  ['createdAt since last week, oldest first', { createdAt: { gte: LAST_WEEK } }, [['createdAt', 'ASC']]],
  ['createdAt before T', { createdAt: { lt: BEFORE } }, undefined],
];

describe.skipIf(!usingPostgres)(`the orders list's plans as the service runs them, on ${ORDERS.toLocaleString('en')} orders`, () => {
  const scopes: [string, () => Scope][] = [
    ['branch', () => ({ branchId: world.branches.b1, exchangeIds: null })],
    ['operator of both exchanges', () => ({ branchId: world.branches.b1, exchangeIds: [world.exchanges.A, world.exchanges.B] })],
  ];
  const cases = scopes.flatMap(([who, scope]) => CASES.map(([name, filter, sort]) => [`${who}: ${name}`, scope, filter, sort] as const));

  it.each(cases)('%s: the first page and the next read at most a page and the capped count', async (_, scopeOf, rawFilter, sort) => {
    const filter = Object.fromEntries(Object.entries(rawFilter).map(([k, v]) =>
      [k, v === 'B' ? world.exchanges.B : v === 'client' ? userId : v]));
    const query = { filter: JSON.stringify(filter), sort: sort ? JSON.stringify(sort) : undefined, limit: 20 };
    const scope = scopeOf();
    const first = await listOrders(server.db, scope, parseListQuery(query, ORDER_LIST));
    const sent = [
      ...await statementsOf((db) => listOrders(db, scope, parseListQuery(query, ORDER_LIST))),
      ...(first.nextCursor ? await statementsOf((db) => listOrders(db, scope, parseListQuery({ ...query, cursor: first.nextCursor! }, ORDER_LIST))) : []),
    ];
    expect(sent.length).toBeGreaterThan(0);
    for (const q of sent) {
      const { generic, plan } = await planAsRun(q);
      expect(wideScans(plan), `${generic ? 'generic' : 'custom'} plan of ${q.sql}`).toEqual([]);
    }
  });
});
