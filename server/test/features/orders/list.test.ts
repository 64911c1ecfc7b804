import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../../src/db/schema.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody, placeOrder, staffToken } from './support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
/** o[1..6] in branch 1 (see beforeAll), other = the branch-2 order. */
const o: Record<number | 'other', number> = { other: 0 };
let clientA = 0;
let clientB = 0;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  const now = new Date();
  const [ca, cb] = await server.db
    .insertInto('clients')
    .values([
      {
        branch_id: world.branches.b1,
        first_name: 'Ann',
        last_name: 'A',
        email: 'ann@example.com',
        phone: '+10000000011',
        updated_at: now,
      },
      {
        branch_id: world.branches.b1,
        first_name: 'Ben',
        last_name: 'B',
        email: 'ben@example.com',
        phone: '+10000000012',
        updated_at: now,
      },
    ])
    .returning('id')
    .execute();
  [clientA, clientB] = [ca.id, cb.id];
  await server.db
    .insertInto('client_exchanges')
    .values([
      { client_id: clientA, exchange_id: world.exchanges.A },
      { client_id: clientB, exchange_id: world.exchanges.B },
    ])
    .execute();

  const B = world.exchanges.B;
  const specs: [Record<string, unknown>, OrderStatus, string][] = [
    [{ clientAmount: 100, user: { id: clientA } }, 'ORDERINIT', '2025-01-01T10:00:00Z'],
    [{ operationType: 'finop', clientAmount: 50, exchangeAmount: 40 }, 'CLIENTPAYMENTWAIT', '2025-01-02T10:00:00Z'],
    [{ cashbox: { id: B }, clientAmount: 200 }, 'CANCEL', '2025-01-03T10:00:00Z'],
    [
      { cashbox: { id: B }, operationType: 'finop', clientAmount: 10, exchangeAmount: 9, user: { id: clientB } },
      'ORDERINIT',
      '2025-01-04T10:00:00Z',
    ],
    [{ clientAmount: 300 }, 'SUCCESS', '2025-01-05T10:00:00Z'],
    [{ clientAmount: 20, user: { id: clientA } }, 'ORDERINIT', '2025-01-06T10:00:00Z'],
  ];
  for (const [i, [overrides, status, createdAt]] of specs.entries()) {
    const { id } = await placeOrder(server, world.keys.branch, orderBody(world, overrides));
    // Status and creation time set directly: this file tests the listing, not the lifecycle.
    await server.db
      .updateTable('orders')
      .set({ status, created_at: new Date(createdAt), updated_at: new Date(createdAt) })
      .where('id', '=', id)
      .execute();
    o[i + 1] = id;
  }
  o.other = (
    await placeOrder(
      server,
      world.keys.otherBranch,
      orderBody(world, { cashbox: { id: world.exchanges.C }, clientAmount: 50 }),
    )
  ).id;
});
afterAll(() => server?.close());

const list = (query: Record<string, string | number> = {}, key = world.keys.branch) =>
  call(server, 'GET', '/partner/orders', { key, query });
const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((r) => r.id);

describe('GET /partner/orders: pages', () => {
  it('defaults to skip 0, limit 25, id ascending, with the total', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([o[1], o[2], o[3], o[4], o[5], o[6]]);
    expect(res.body.meta).toEqual({ total: 6, skip: 0, limit: 25, nextCursor: null });
    expect(res.body.data[0]).toMatchObject({
      id: o[1],
      status: 'ORDERINIT',
      clientAmount: 100,
      exchangeAmount: 92.15,
      user: { id: clientA },
      createdAt: '2025-01-01T10:00:00.000Z',
    });
  });

  it('pages with skip and limit; past the end the total still counts', async () => {
    const page = await list({ skip: 2, limit: 2 });
    expect(ids(page)).toEqual([o[3], o[4]]);
    expect(page.body.meta).toEqual({ total: 6, skip: 2, limit: 2, nextCursor: expect.any(String) });
    const past = await list({ skip: 50 });
    expect(past.body).toEqual({ data: [], meta: { total: 6, skip: 50, limit: 25, nextCursor: null } });
    expect((await list({ limit: 100 })).status).toBe(200);
  });

  it.each([
    [{ limit: 101 }, { limit: 'tooLarge' }],
    [{ limit: 0 }, { limit: 'tooSmall' }],
    [{ skip: -1 }, { skip: 'tooSmall' }],
    [{ limit: 'ten' }, { limit: 'invalidType' }],
  ])('%o → 400 %o', async (query, errors) => {
    const res = await list(query as Record<string, string | number>);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
  });
});

describe('GET /partner/orders: filters', () => {
  it.each([
    ['status', () => ({ status: 'ORDERINIT' }), () => [o[1], o[4], o[6]]],
    ['cashboxId', () => ({ cashboxId: world.exchanges.B }), () => [o[3], o[4]]],
    ['userId', () => ({ userId: clientA }), () => [o[1], o[6]]],
    ['operationType', () => ({ operationType: 'finop' }), () => [o[2], o[4]]],
    [
      'createdAt gte/lt',
      () => ({ createdAt: { gte: '2025-01-02T10:00:00Z', lt: '2025-01-04T10:00:00Z' } }),
      () => [o[2], o[3]],
    ],
    [
      'createdAt gt/lte',
      () => ({ createdAt: { gt: '2025-01-02T10:00:00Z', lte: '2025-01-04T10:00:00Z' } }),
      () => [o[3], o[4]],
    ],
    [
      'several at once',
      () => ({ status: 'ORDERINIT', cashboxId: world.exchanges.A, operationType: 'offer' }),
      () => [o[1], o[6]],
    ],
  ])('%s', async (_name, filter, expected) => {
    const res = await list({ filter: JSON.stringify(filter()) });
    expect(res.status, res.text).toBe(200);
    expect(ids(res)).toEqual(expected());
    expect(res.body.meta.total).toBe(expected().length);
  });

  it.each([
    ['{"status":', { filter: 'invalidJson' }],
    ['[1]', { filter: 'invalidType' }],
    ['{"branchId":1}', { 'filter.branchId': 'notAllowed' }],
    ['{"status":"PAID"}', { 'filter.status': 'invalidValue' }],
    ['{"cashboxId":"A"}', { 'filter.cashboxId': 'invalidValue' }],
    ['{"createdAt":{"after":"2025-01-01"}}', { 'filter.createdAt': 'invalidValue' }],
    ['{"createdAt":{"gte":"yesterday"}}', { 'filter.createdAt': 'invalidValue' }],
  ])('filter %s → 400 %o', async (filter, errors) => {
    const res = await list({ filter });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
  });
});

describe('GET /partner/orders: sort', () => {
  it.each([
    ['id DESC', [['id', 'DESC']], () => [o[6], o[5], o[4], o[3], o[2], o[1]]],
    ['createdAt DESC', [['createdAt', 'DESC']], () => [o[6], o[5], o[4], o[3], o[2], o[1]]],
    ['updatedAt ASC', [['updatedAt', 'ASC']], () => [o[1], o[2], o[3], o[4], o[5], o[6]]],
    // 300, 200, 100, 50, 20, 10
    ['clientAmount DESC', [['clientAmount', 'DESC']], () => [o[5], o[3], o[1], o[2], o[6], o[4]]],
    // 9, 18.43 (20 × 0.9215), 40, 92.15, 186 (200 × 0.93), 276.45
    ['exchangeAmount ASC', [['exchangeAmount', 'ASC']], () => [o[4], o[6], o[2], o[1], o[3], o[5]]],
    // text order of the status, then id as the tiebreak
    ['status ASC', [['status', 'ASC']], () => [o[3], o[2], o[1], o[4], o[6], o[5]]],
    [
      'status DESC, id DESC',
      [
        ['status', 'DESC'],
        ['id', 'DESC'],
      ],
      () => [o[5], o[6], o[4], o[1], o[2], o[3]],
    ],
  ])('%s', async (_name, sort, expected) => {
    const res = await list({ sort: JSON.stringify(sort) });
    expect(res.status, res.text).toBe(200);
    expect(ids(res)).toEqual(expected());
  });

  it.each([
    ['[["rate","ASC"]]', { 'sort.rate': 'notAllowed' }],
    ['[["id","UP"]]', { 'sort.id': 'invalidValue' }],
    ['{"id":"ASC"}', { sort: 'invalidType' }],
    ['[["id"', { sort: 'invalidJson' }],
  ])('sort %s → 400 %o', async (sort, errors) => {
    const res = await list({ sort });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
  });
});

describe('GET /partner/orders: scope', () => {
  it.each([
    ['operatorA', () => [o[1], o[2], o[5], o[6]]],
    ['operatorB', () => [o[3], o[4]]],
    ['readOnlyA', () => [o[1], o[2], o[5], o[6]]],
    ['otherBranch', () => [o.other]],
    ['superadmin', () => [o[1], o[2], o[3], o[4], o[5], o[6], o.other]],
  ] as const)('%s sees only its orders, and its total', async (key, expected) => {
    const res = await list({}, world.keys[key]);
    expect(ids(res)).toEqual(expected());
    expect(res.body.meta.total).toBe(expected().length);
  });

  it('an operator filtering on another exchange gets nothing', async () => {
    const res = await list({ filter: JSON.stringify({ cashboxId: world.exchanges.B }) }, world.keys.operatorA);
    expect(res.body).toEqual({ data: [], meta: { total: 0, skip: 0, limit: 25, nextCursor: null } });
  });

  it("GET /admin/orders lists in the staff user's scope with the same query", async () => {
    const admin = tokens.admin1;
    const res = await call(server, 'GET', '/admin/orders', {
      token: admin,
      query: { filter: JSON.stringify({ status: 'ORDERINIT' }), sort: '[["id","DESC"]]' },
    });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([o[6], o[4], o[1]]);
    expect(res.body.data[0].branchId).toBe(world.branches.b1);
    const operatorB = await staffToken(server, world.staff.operatorB.id);
    expect(ids(await call(server, 'GET', '/admin/orders', { token: operatorB }))).toEqual([o[3], o[4]]);
    const admin2 = await staffToken(server, world.staff.admin2.id);
    expect(ids(await call(server, 'GET', '/admin/orders', { token: admin2 }))).toEqual([o.other]);
    expect((await call(server, 'GET', '/admin/orders', { token: admin, query: { limit: 101 } })).status).toBe(400);
  });
});
