import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/database.js';
import { listOrders } from '../../src/features/orders/repository.js';
import { ORDER_LIST } from '../../src/features/orders/partner-routes.js';
import { parseListQuery } from '../../src/http/list-query.js';
import { usingPostgres } from '../helpers/database.js';
import { statementsSent } from '../helpers/statements.js';
import { startWorld } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import type { World } from '../helpers/world.js';
import { orderBody, placeOrder } from '../features/orders/support.js';

/**
 * Every allowed filter and sort of the orders list, first page and cursor page, is planned on 200,000 orders
 * (ANALYZEd) without a sequential scan of the table: an index that goes missing fails here, not in production
 * (docs/scaling.md). PostgreSQL only: PGlite's planner has the same rules but the seed would take minutes there.
 */
const ORDERS = 200_000;

let server: TestServer;
let world: World;
let client = 0;

beforeAll(async () => {
  if (!usingPostgres) return;
  ({ server, world } = await startWorld());
  client = (
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
  const b1 = (await placeOrder(server, world.keys.branch, orderBody(world, { clientAmount: 100 }))).id;
  const b2 = (
    await placeOrder(
      server,
      world.keys.otherBranch,
      orderBody(world, { cashbox: { id: world.exchanges.C }, clientAmount: 100 }),
    )
  ).id;
  // Three orders in four in branch 1, over two exchanges, two years, six statuses; one in ten a financial
  // operation, a client on one in fifty.
  await sql`
    insert into orders (hashed_id, branch_id, cashbox_id, currency1_id, currency2_id, client_amount, exchange_amount, status,
      operation_type, offer_id, user_id, created_at, updated_at)
    select 'seed-' || g, t.branch_id, case when t.branch_id = ${world.branches.b1} and g % 3 = 0 then ${world.exchanges.B} else t.cashbox_id end,
      t.currency1_id, t.currency2_id, 1 + (g::bigint * 7919) % 100000, 1 + (g::bigint * 104729) % 90000,
      (array['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT', 'SUCCESS', 'CANCEL'])[1 + g % 6],
      case when g % 10 = 0 then 'finop' else t.operation_type end, case when g % 10 <> 0 then t.offer_id end, case when g % 50 = 0 then ${client}::int end,
      timestamptz '2024-01-01' + g * interval '5 minutes', timestamptz '2024-01-01' + g * interval '5 minutes' + (g % 13) * interval '1 hour'
    from generate_series(1, ${ORDERS}::int) g
    join orders t on t.id = case when g % 4 = 0 then ${b2}::int else ${b1}::int end`.execute(server.db);
  await sql`analyze orders`.execute(server.db);
}, 120_000);
afterAll(() => server?.close());

const queriesOf = (run: (db: Executor) => Promise<unknown>): Promise<CompiledQuery[]> => statementsSent(server.db, run);

/**
 * Sequential scans of orders in a plan. One that streams straight into a Limit (no sort or aggregate between)
 * is bounded by that limit, as in the capped count of a common value, and is not one. A walk of the primary key
 * that filters on the branch without a bound on the id counts as one: it skips the other branches' orders before
 * the branch's first (the id sort's first page ran at 0.55 on 1,000,000 orders, docs/scaling.md).
 */
function seqScans(plan: unknown, out: string[] = [], bounded = false): string[] {
  if (Array.isArray(plan)) plan.forEach((p) => seqScans(p, out, bounded));
  else if (plan && typeof plan === 'object') {
    const node = plan as Record<string, unknown> & { 'Node Type'?: string; Filter?: string };
    const type = node['Node Type'];
    if (type === 'Seq Scan' && node['Relation Name'] === 'orders' && !bounded)
      out.push(String(node.Filter ?? 'no filter'));
    if (node['Index Name'] === 'orders_pkey' && String(node.Filter ?? '').includes('branch_id') && !node['Index Cond'])
      out.push(`orders_pkey, filter ${String(node.Filter)}`);
    const streams = type === undefined ? bounded : type === 'Limit' || (bounded && !BLOCKING.has(String(type)));
    Object.values(node).forEach((v) => seqScans(v, out, streams));
  }
  return out;
}
const BLOCKING = new Set([
  'Sort',
  'Incremental Sort',
  'Aggregate',
  'Hash',
  'Materialize',
  'Gather Merge',
  'WindowAgg',
  'Unique',
  'SetOp',
]);

const day = (d: string) => ({ gte: `${d}T00:00:00Z`, lt: `${d}T23:59:59Z` });
const FILTERS: Record<string, unknown>[] = [
  {},
  { status: 'CASHOUT' },
  { cashboxId: 0 },
  { userId: 0 },
  { operationType: 'finop' },
  { operationType: 'offer' },
  { createdAt: day('2025-02-03') },
  { status: 'SUCCESS', cashboxId: 0 },
  { source: 'counter' },
];
const SORTS = ORDER_LIST.sorts
  .flatMap((field) => [[[field, 'ASC']], [[field, 'DESC']]])
  .concat([
    [
      ['status', 'ASC'],
      ['createdAt', 'DESC'],
    ],
  ]);

describe.skipIf(!usingPostgres)(`EXPLAIN of the orders list on ${ORDERS.toLocaleString('en')} orders`, () => {
  const cases: [string, Record<string, unknown>, unknown][] = [];
  for (const filter of FILTERS) cases.push([`filter ${JSON.stringify(filter)}`, filter, undefined]);
  for (const sort of SORTS) cases.push([`sort ${JSON.stringify(sort)}`, {}, sort]);
  for (const sort of SORTS.slice(0, 4))
    cases.push([`status filter, sort ${JSON.stringify(sort)}`, { status: 'CANCEL' }, sort]);

  it.each(cases)('%s: first page and a cursor page deep in the list use indexes', async (_, rawFilter, sort) => {
    const filter = Object.fromEntries(
      Object.entries(rawFilter).map(([k, v]) => [
        k,
        k === 'cashboxId' ? world.exchanges.B : k === 'userId' ? client : v,
      ]),
    );
    const query = { filter: JSON.stringify(filter), sort: sort ? JSON.stringify(sort) : undefined, limit: 25 };
    const scope = { branchId: world.branches.b1, exchangeIds: null };
    const first = await listOrders(server.db, scope, parseListQuery(query, ORDER_LIST));
    // A cursor from the middle of the list: the 25th row of a page that starts halfway.
    const deep = await listOrders(
      server.db,
      scope,
      parseListQuery({ ...query, skip: Math.min(Math.floor(first.total / 2), 10_000) }, ORDER_LIST),
    );
    const cursor = deep.nextCursor ?? first.nextCursor ?? undefined;
    const sent = [
      ...(await queriesOf((db) => listOrders(db, scope, parseListQuery(query, ORDER_LIST)))),
      ...(cursor
        ? await queriesOf((db) => listOrders(db, scope, parseListQuery({ ...query, cursor }, ORDER_LIST)))
        : []),
    ];
    expect(sent.length).toBeGreaterThan(0);
    for (const q of sent) {
      const { rows } = await server.db.executeQuery(
        CompiledQuery.raw(`explain (format json) ${q.sql}`, [...q.parameters]),
      );
      expect(seqScans((rows[0] as Record<string, unknown>)['QUERY PLAN']), q.sql).toEqual([]);
    }
  });

  it('an operator (two exchanges) pages by cursor through indexes too', async () => {
    const scope = { branchId: world.branches.b1, exchangeIds: [world.exchanges.A, world.exchanges.B] };
    const first = await listOrders(server.db, scope, parseListQuery({ sort: '[["createdAt","DESC"]]' }, ORDER_LIST));
    const sent = await queriesOf((db) =>
      listOrders(db, scope, parseListQuery({ sort: '[["createdAt","DESC"]]', cursor: first.nextCursor! }, ORDER_LIST)),
    );
    for (const q of sent) {
      const { rows } = await server.db.executeQuery(
        CompiledQuery.raw(`explain (format json) ${q.sql}`, [...q.parameters]),
      );
      expect(seqScans((rows[0] as Record<string, unknown>)['QUERY PLAN']), q.sql).toEqual([]);
    }
  });
});
