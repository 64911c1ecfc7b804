import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as turnoverMigration from '../../../src/db/migrations/021_turnover.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { orderBody, placeOrder } from '../orders/support.js';
import { todayUtc, turnover } from './support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

async function settle(id: number, token = tokens.admin1) {
  for (const status of ['CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'SUCCESS']) {
    const res = await call(server, 'POST', `/admin/orders/${id}/status`, { token, body: { status } });
    expect(res.status, res.text).toBe(200);
  }
}

const ids: Record<string, number> = {};
beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  // a1: 100 USD → 92.15 EUR at A, priced against a reference of 0.93: at the reference the office would have paid
  // 93.00 EUR, so it earned 0.85 EUR. a2: 200 USD → 184.30 EUR, a fixed offer (no reference), placed at the counter
  // by operatorA. b1: 50 USD → 46.50 EUR at B. c1: another branch's. open: never settled.
  ids.a1 = (await placeOrder(server, world.keys.branch, orderBody(world))).id;
  ids.a2 = (await placeOrder(server, world.keys.branch, orderBody(world, { clientAmount: 200 }))).id;
  ids.b1 = (
    await placeOrder(
      server,
      world.keys.branch,
      orderBody(world, { cashbox: { id: world.exchanges.B }, clientAmount: 50 }),
    )
  ).id;
  ids.c1 = (
    await placeOrder(
      server,
      world.keys.otherBranch,
      orderBody(world, { cashbox: { id: world.exchanges.C }, clientAmount: 50 }),
    )
  ).id;
  ids.open = (await placeOrder(server, world.keys.branch, orderBody(world, { clientAmount: 300 }))).id;
  await server.db.updateTable('orders').set({ reference_rate: '0.93' }).where('id', '=', ids.a1).execute();
  await server.db
    .updateTable('orders')
    .set({ source: 'counter', created_by_staff_id: world.staff.operatorA.id })
    .where('id', '=', ids.a2)
    .execute();
  await settle(ids.a1);
  await settle(ids.a2);
  await settle(ids.b1, tokens.operatorB);
  await settle(ids.c1, tokens.admin2);
});
afterAll(() => server?.close());

const day = () => ({ from: todayUtc(), to: todayUtc() });
const usd = () => ({ id: world.currencies.USD, ticker: 'USD' });
const eur = () => ({ id: world.currencies.EUR, ticker: 'EUR' });

describe('GET /admin/reports/turnover', () => {
  it('sums what settled orders received, paid out and earned, per currency, with exact decimals', async () => {
    const report = await turnover(server, tokens.admin1, { ...day(), groupBy: 'currency' });
    // JSON numbers read as their exact text.
    const exact = (c: { id: number; ticker: string }) => ({ id: String(c.id), ticker: c.ticker });
    expect(report.data).toEqual(
      [
        { currency: exact(usd()), received: '350', paidOut: '0', orders: '3', income: '0' },
        { currency: exact(eur()), received: '0', paidOut: '322.95', orders: '3', income: '0.85' },
      ].sort((x, y) => Number(x.currency.id) - Number(y.currency.id)),
    );
  });

  it('groups by day, exchange and staff user', async () => {
    const byDay = await turnover(server, tokens.admin1, { ...day(), groupBy: 'day' });
    expect(byDay.data.map((r) => [r.period, r.currency.ticker, r.orders])).toEqual(
      expect.arrayContaining([
        [todayUtc(), 'USD', '3'],
        [todayUtc(), 'EUR', '3'],
      ]),
    );
    const byExchange = await turnover(server, tokens.admin1, { ...day(), groupBy: 'exchange' });
    expect(
      byExchange.data.find((r) => r.exchangeId === String(world.exchanges.B) && r.currency.ticker === 'EUR'),
    ).toMatchObject({ paidOut: '46.5', orders: '1' });
    const byStaff = await turnover(server, tokens.admin1, { ...day(), groupBy: 'staff' });
    const staffOf = (ticker: string) =>
      Object.fromEntries(
        byStaff.data.filter((r) => r.currency.ticker === ticker).map((r) => [r.staff?.email ?? 'none', r.received]),
      );
    // a1 counts for admin1, who settled it; a2 for operatorA, its cashier, although admin1 settled it.
    expect(staffOf('USD')).toEqual({
      'admin1@test.local': '100',
      'operatora@test.local': '200',
      'operatorb@test.local': '50',
    });
  });

  it("keeps to the caller's scope: an operator sees its exchanges, another branch nothing of this one", async () => {
    const of = async (who: StaffName, query: Record<string, string | number> = {}) =>
      (await turnover(server, tokens[who], { ...day(), groupBy: 'currency', ...query })).data.map((r) => [
        r.currency.ticker,
        r.received,
        r.paidOut,
      ]);
    expect(await of('operatorA')).toEqual(
      [
        ['USD', '300', '0'],
        ['EUR', '0', '276.45'],
      ].sort(byTicker(world)),
    );
    expect(await of('operatorB')).toEqual(
      [
        ['USD', '50', '0'],
        ['EUR', '0', '46.5'],
      ].sort(byTicker(world)),
    );
    expect(await of('operatorB', { exchangeId: world.exchanges.A })).toEqual([]);
    expect(await of('admin1', { exchangeId: world.exchanges.B })).toEqual(
      [
        ['USD', '50', '0'],
        ['EUR', '0', '46.5'],
      ].sort(byTicker(world)),
    );
    expect(await of('admin2')).toEqual(
      [
        ['USD', '50', '0'],
        ['EUR', '0', '45'],
      ].sort(byTicker(world)),
    );
    expect((await of('superadmin'))[0][1]).toBe('400');
  });

  it('counts an order on the day it was settled, in the time zone asked for', async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(
      (await turnover(server, tokens.admin1, { from: yesterday, to: yesterday, groupBy: 'currency' })).data,
    ).toEqual([]);
    // Every order settled today (UTC) is on today's or on yesterday's or tomorrow's date in any zone: over the three
    // days each zone gives the same sums.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const tz of ['Asia/Kathmandu', 'America/St_Johns', 'Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const r = await turnover(server, tokens.admin1, { from: yesterday, to: tomorrow, groupBy: 'currency', tz });
      expect(r.data.map((x) => x.received + '/' + x.paidOut)).toEqual(
        (await turnover(server, tokens.admin1, { ...day(), groupBy: 'currency' })).data.map(
          (x) => x.received + '/' + x.paidOut,
        ),
      );
    }
  });

  it('writes the same rows as CSV, with format=csv or Accept: text/csv', async () => {
    const json = await turnover(server, tokens.admin1, { ...day(), groupBy: 'staff' });
    const csv = await call(server, 'GET', '/admin/reports/turnover', {
      token: tokens.admin1,
      query: { ...day(), groupBy: 'staff', format: 'csv' },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="turnover-staff-/);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe('staffId,staffEmail,currencyId,currencyTicker,received,paidOut,orders,income');
    expect(lines.slice(1, -1)).toEqual(
      json.data.map((r) =>
        [
          r.staff?.id ?? '',
          r.staff?.email ?? '',
          r.currency.id,
          r.currency.ticker,
          r.received,
          r.paidOut,
          r.orders,
          r.income,
        ].join(','),
      ),
    );
    expect(lines.at(-1)).toBe('');
    const accepted = await call(server, 'GET', '/admin/reports/turnover', {
      token: tokens.admin1,
      query: { ...day(), groupBy: 'staff' },
      headers: { accept: 'text/csv' },
    });
    expect(accepted.text).toBe(csv.text);
  });

  it('refuses a bad range or zone with a 400 that names the parameter', async () => {
    const refusal = async (query: Record<string, string>) => {
      const res = await call(server, 'GET', '/admin/reports/turnover', {
        token: tokens.admin1,
        query: { groupBy: 'day', ...query },
      });
      expect(res.status, res.text).toBe(400);
      return res.body.errors;
    };
    expect(await refusal({ from: '2026-02-30', to: '2026-03-01' })).toEqual({ from: 'notADate' });
    expect(await refusal({ from: '2026-03-01', to: '2026-13-01' })).toEqual({ to: 'notADate' });
    expect(await refusal({ from: '2026-03-02', to: '2026-03-01' })).toEqual({ to: 'beforeFrom' });
    expect(await refusal({ from: '2025-01-01', to: '2026-01-02' })).toEqual({ to: 'rangeTooLong' });
    expect(await refusal({ from: '2026-01-01', to: '2026-01-01', tz: 'Mars/Olympus_Mons' })).toEqual({
      tz: 'invalidValue',
    });
    expect(await refusal({ from: '1971-06-01', to: '1971-06-02', tz: 'Africa/Monrovia' })).toEqual({
      tz: 'offQuarter',
    });
    expect(Object.keys(await refusal({ from: '2026-1-1', to: '2026-01-01' }))).toEqual(['from']);
    expect(Object.keys(await refusal({ from: '2026-01-01', to: '2026-01-01', groupBy: 'week' }))).toEqual(['groupBy']);
    expect(Object.keys(await refusal({ to: '2026-01-01' }))).toEqual(['from']);
    // A leap year's 366 days are one report.
    const leap = await call(server, 'GET', '/admin/reports/turnover', {
      token: tokens.admin1,
      query: { from: '2024-01-01', to: '2024-12-31', groupBy: 'day', tz: 'Asia/Kathmandu' },
    });
    expect(leap.status).toBe(200);
  });

  it('leaves a settled order counted when a move out of SUCCESS is refused', async () => {
    const before = await turnover(server, tokens.admin1, { ...day(), groupBy: 'currency' });
    const res = await call(server, 'POST', `/admin/orders/${ids.a1}/status`, {
      token: tokens.admin1,
      body: { status: 'CANCEL' },
    });
    expect(res.status).toBe(422);
    expect(await turnover(server, tokens.admin1, { ...day(), groupBy: 'currency' })).toEqual(before);
  });

  it('is rebuilt from the settled orders and their history by the migration, to the same figures', async () => {
    const reports = () =>
      Promise.all(
        (['currency', 'staff', 'exchange'] as const).map((groupBy) =>
          turnover(server, tokens.superadmin, { ...day(), groupBy }),
        ),
      );
    const before = await reports();
    await turnoverMigration.down(server.db as unknown as Kysely<unknown>);
    await turnoverMigration.up(server.db as unknown as Kysely<unknown>);
    expect(await reports()).toEqual(before);
  });

  it('shows on the home page: today per currency', async () => {
    const res = await call(server, 'GET', '/admin/dashboard', { token: tokens.operatorB });
    expect(res.status).toBe(200);
    expect(res.body.turnover).toEqual(
      [
        { currency: usd(), received: 50, paidOut: 0, orders: 1, income: 0 },
        { currency: eur(), received: 0, paidOut: 46.5, orders: 1, income: 0 },
      ].sort((x, y) => x.currency.id - y.currency.id),
    );
  });

  it('needs a staff token with orders:read', async () => {
    expect((await call(server, 'GET', '/admin/reports/turnover', { query: { ...day(), groupBy: 'day' } })).status).toBe(
      401,
    );
    expect(
      (
        await call(server, 'GET', '/admin/reports/turnover', {
          key: world.keys.branch,
          query: { ...day(), groupBy: 'day' },
        })
      ).status,
    ).toBe(401);
  });
});

function byTicker(world: World) {
  return (x: string[], y: string[]) =>
    world.currencies[x[0] as 'USD' | 'EUR'] - world.currencies[y[0] as 'USD' | 'EUR'];
}
