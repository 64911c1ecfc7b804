import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody } from './support.js';

let server: TestServer;
let world: World;
/** Clients: atA (branch 1, exchange A), atB (branch 1, exchange B only), atC (branch 2). */
const clients = { atA: 0, atB: 0, atC: 0 };
/** Payment methods beside the world's: an inactive one and one for EUR only, both branch-wide in branch 1. */
const methods = { inactive: 0, eurOnly: 0 };
const missing = 999999;

beforeAll(async () => {
  ({ server, world } = await startWorld());
  const now = new Date();
  const rows = await server.db
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
      {
        branch_id: world.branches.b2,
        first_name: 'Cid',
        last_name: 'C',
        email: 'cid@example.com',
        phone: '+10000000013',
        updated_at: now,
      },
    ])
    .returning('id')
    .execute();
  [clients.atA, clients.atB, clients.atC] = rows.map((r) => r.id);
  await server.db
    .insertInto('client_exchanges')
    .values([
      { client_id: clients.atA, exchange_id: world.exchanges.A },
      { client_id: clients.atB, exchange_id: world.exchanges.B },
      { client_id: clients.atC, exchange_id: world.exchanges.C },
    ])
    .execute();
  const pm = await server.db
    .insertInto('payment_methods')
    .values([
      { branch_id: world.branches.b1, name: 'Retired', is_active: false, updated_at: now },
      {
        branch_id: world.branches.b1,
        name: 'EUR transfer',
        currency_id: world.currencies.EUR,
        kind: 'bank_transfer',
        updated_at: now,
      },
    ])
    .returning('id')
    .execute();
  [methods.inactive, methods.eurOnly] = pm.map((r) => r.id);
});
afterAll(() => server?.close());

const post = (key: string, overrides: Record<string, unknown>) =>
  call(server, 'POST', '/partner/orders', { key, body: orderBody(world, overrides) });

describe("POST /partner/orders: every reference checked in the key's scope", () => {
  const cases: [string, 'branch' | 'operatorA', () => Record<string, unknown>, Record<string, string>][] = [
    ['a missing cashbox', 'branch', () => ({ cashbox: { id: missing } }), { cashbox: 'notFound' }],
    ['a cashbox of another branch', 'branch', () => ({ cashbox: { id: world.exchanges.C } }), { cashbox: 'notFound' }],
    [
      "a cashbox outside the operator's exchanges",
      'operatorA',
      () => ({ cashbox: { id: world.exchanges.B } }),
      { cashbox: 'notFound' },
    ],
    ['an inactive cashbox', 'branch', () => ({ cashbox: { id: world.exchanges.X } }), { cashbox: 'inactive' }],
    ['a missing currency1', 'branch', () => ({ currency1: { id: missing } }), { currency1: 'notFound' }],
    ['a missing currency2', 'branch', () => ({ currency2: { id: missing } }), { currency2: 'notFound' }],
    ['a missing user', 'branch', () => ({ user: { id: missing } }), { user: 'notFound' }],
    ['a user of another branch', 'branch', () => ({ user: { id: clients.atC } }), { user: 'notFound' }],
    [
      'a user sharing no exchange with the operator',
      'operatorA',
      () => ({ user: { id: clients.atB } }),
      { user: 'notFound' },
    ],
    [
      'a missing paymentMethodSource',
      'branch',
      () => ({ paymentMethodSource: { id: missing } }),
      { paymentMethodSource: 'notFound' },
    ],
    [
      'a paymentMethodSource of another branch',
      'branch',
      () => ({ paymentMethodSource: { id: world.paymentMethods.cashC } }),
      { paymentMethodSource: 'notFound' },
    ],
    [
      'a paymentMethodSource of another exchange',
      'branch',
      () => ({ paymentMethodSource: { id: world.paymentMethods.cardB } }),
      { paymentMethodSource: 'notFound' },
    ],
    [
      "a paymentMethodSource outside the operator's exchanges",
      'operatorA',
      () => ({ paymentMethodSource: { id: world.paymentMethods.cardB } }),
      { paymentMethodSource: 'notFound' },
    ],
    [
      'an inactive paymentMethodSource',
      'branch',
      () => ({ paymentMethodSource: { id: methods.inactive } }),
      { paymentMethodSource: 'inactive' },
    ],
    [
      'a paymentMethodSource for another currency',
      'branch',
      () => ({ paymentMethodSource: { id: methods.eurOnly } }),
      { paymentMethodSource: 'currencyMismatch' },
    ],
    [
      'a missing paymentMethodDest',
      'branch',
      () => ({ paymentMethodDest: { id: missing } }),
      { paymentMethodDest: 'notFound' },
    ],
    [
      'a paymentMethodDest of another branch',
      'branch',
      () => ({ paymentMethodDest: { id: world.paymentMethods.cashC } }),
      { paymentMethodDest: 'notFound' },
    ],
    [
      'a paymentMethodDest of another exchange',
      'branch',
      () => ({ paymentMethodDest: { id: world.paymentMethods.cardB } }),
      { paymentMethodDest: 'notFound' },
    ],
    [
      'an inactive paymentMethodDest',
      'branch',
      () => ({ paymentMethodDest: { id: methods.inactive } }),
      { paymentMethodDest: 'inactive' },
    ],
  ];

  it.each(cases)('%s → 400', async (_name, key, overrides, errors) => {
    const res = await post(world.keys[key], overrides());
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
    expect(res.body.error).toBe('Bad Request');
  });

  it('reports every bad reference at once', async () => {
    const res = await post(world.keys.operatorA, {
      cashbox: { id: world.exchanges.B },
      currency1: { id: missing },
      user: { id: clients.atC },
      paymentMethodDest: { id: missing },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      cashbox: 'notFound',
      currency1: 'notFound',
      user: 'notFound',
      paymentMethodDest: 'notFound',
    });
    expect(res.body.message).toEqual([
      'cashbox not found',
      'currency1 not found',
      'user not found',
      'paymentMethodDest not found',
    ]);
  });

  it('accepts references within scope', async () => {
    const ok = await post(world.keys.operatorA, {
      user: { id: clients.atA },
      paymentMethodSource: { id: world.paymentMethods.cardA },
      paymentMethodDest: { id: methods.eurOnly },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.user).toEqual({ id: clients.atA });
    // A branch key reaches every client of its branch, whatever its exchanges.
    expect((await post(world.keys.branch, { user: { id: clients.atB } })).status).toBe(201);
    // A superadmin's key reaches every branch.
    const other = await post(world.keys.superadmin, {
      cashbox: { id: world.exchanges.C },
      user: { id: clients.atC },
      paymentMethodSource: { id: world.paymentMethods.cashC },
    });
    expect(other.status, other.text).toBe(201);
    const row = await server.db
      .selectFrom('orders')
      .select('branch_id')
      .where('id', '=', other.body.id)
      .executeTakeFirstOrThrow();
    expect(row.branch_id).toBe(world.branches.b2);
  });
});
