import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../../helpers/database.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody } from '../orders/support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

describe(`concurrent orders at one position (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('20 orders against a reserve that covers 7: exactly 7 created, 13 insufficientReserve, held = 7 payouts', async () => {
    const { B } = world.exchanges;
    const { USD, EUR } = world.currencies;
    // At B, 10 USD buy 9.30 EUR: 70 EUR covers 7 orders (65.10) and not 8 (74.40).
    const deposit = await call(server, 'POST', `/admin/exchanges/${B}/cash/${EUR}/movements`, {
      token: tokens.admin1,
      body: { kind: 'deposit', amount: 70 },
    });
    expect(deposit.status, deposit.text).toBe(201);
    const body = orderBody(world, {
      cashbox: { id: B },
      currency1: { id: USD },
      currency2: { id: EUR },
      clientAmount: 10,
    });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call(server, 'POST', '/partner/orders', { key: world.keys.branch, body })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([...Array(7).fill(201), ...Array(13).fill(400)]);
    for (const r of results.filter((x) => x.status === 400))
      expect(r.body.errors, r.text).toEqual({ exchangeAmount: 'insufficientReserve' });
    const position = await server.db
      .selectFrom('cash_positions')
      .select(['balance', 'held'])
      .where('exchange_id', '=', B)
      .where('currency_id', '=', EUR)
      .executeTakeFirstOrThrow();
    expect(Number(position.balance)).toBe(70);
    expect(Number(position.held)).toBeCloseTo(65.1, 10);
    const orders = await server.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('cashbox_id', '=', B)
      .executeTakeFirstOrThrow();
    expect(Number(orders.n)).toBe(7);
  });
});

describe(`tracking starting while orders are placed (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('the first deposit and 10 concurrent orders: every open order is held, none twice', async () => {
    const { A } = world.exchanges;
    const { EUR } = world.currencies;
    const body = orderBody(world, { cashbox: { id: A }, clientAmount: 10 });
    const [deposit, ...orders] = await Promise.all([
      call(server, 'POST', `/admin/exchanges/${A}/cash/${EUR}/movements`, {
        token: tokens.admin1,
        body: { kind: 'deposit', amount: 10000 },
      }),
      ...Array.from({ length: 10 }, () => call(server, 'POST', '/partner/orders', { key: world.keys.branch, body })),
    ]);
    expect(deposit.status, deposit.text).toBe(201);
    expect(orders.map((r) => r.status)).toEqual(Array(10).fill(201));
    const position = await server.db
      .selectFrom('cash_positions')
      .select(['balance', 'held'])
      .where('exchange_id', '=', A)
      .where('currency_id', '=', EUR)
      .executeTakeFirstOrThrow();
    const open = await server.db
      .selectFrom('orders')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('exchange_amount'), eb.val('0')).as('sum'))
      .where('cashbox_id', '=', A)
      .where('currency2_id', '=', EUR)
      .where('status', 'in', ['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT'])
      .executeTakeFirstOrThrow();
    expect(position.held).toBe(open.sum);
    expect(Number(position.balance)).toBe(10000);
  });
});
