import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as turnoverMigration from '../../../src/db/migrations/021_turnover.js';
import { Dec } from '../../../src/features/pricing/decimal.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { placeOrder } from '../orders/support.js';
import { turnover } from './support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
});
afterAll(() => server?.close());

type Cur = 'USD' | 'EUR' | 'BTC' | 'JPY' | 'USDT';
/** Orders the world's offers price (forward, and reversed through the opposite offer), with amounts inside limits. */
const KINDS: {
  at: 'A' | 'B';
  c1: Cur;
  c2: Cur;
  field: 'clientAmount' | 'exchangeAmount';
  min: number;
  max: number;
  decimals: number;
  rate: string;
}[] = [
  { at: 'A', c1: 'USD', c2: 'EUR', field: 'clientAmount', min: 10, max: 10000, decimals: 2, rate: '0.9215' },
  { at: 'A', c1: 'USD', c2: 'EUR', field: 'exchangeAmount', min: 10, max: 5000, decimals: 2, rate: '0.9215' },
  { at: 'A', c1: 'EUR', c2: 'USD', field: 'clientAmount', min: 20, max: 5000, decimals: 2, rate: '0.9215' },
  { at: 'A', c1: 'BTC', c2: 'USD', field: 'clientAmount', min: 0.0001, max: 5, decimals: 8, rate: '64250.17' },
  { at: 'A', c1: 'USD', c2: 'BTC', field: 'clientAmount', min: 10, max: 100000, decimals: 2, rate: '64250.17' },
  { at: 'A', c1: 'EUR', c2: 'JPY', field: 'clientAmount', min: 1, max: 5000, decimals: 2, rate: '161.3791' },
  {
    at: 'A',
    c1: 'USDT',
    c2: 'BTC',
    field: 'clientAmount',
    min: 10,
    max: 100000,
    decimals: 6,
    rate: '0.0000155123456789',
  },
  { at: 'B', c1: 'USD', c2: 'EUR', field: 'clientAmount', min: 5, max: 500, decimals: 2, rate: '0.93' },
  { at: 'B', c1: 'USD', c2: 'EUR', field: 'exchangeAmount', min: 5, max: 400, decimals: 2, rate: '0.93' },
  { at: 'B', c1: 'EUR', c2: 'USD', field: 'clientAmount', min: 10, max: 400, decimals: 2, rate: '0.93' },
];

const DECIMALS: Record<Cur, number> = { USD: 2, EUR: 2, BTC: 8, JPY: 0, USDT: 6 };

/** Zones whose days start off the hour, move with summer time, or sit at the ends of the offsets. */
const ZONES = [
  'UTC',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Europe/London',
  'America/Santiago',
  'Asia/Kolkata',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
];

/** The weeks around the March and April clock changes of both hemispheres, where the settled orders are put. */
const WINDOW_START = Date.parse('2026-03-25T00:00:00Z');
const QUARTERS = 20 * 96;
const QUARTER = 15 * 60_000;

const ORDER = fc.record({
  kind: fc.nat({ max: KINDS.length - 1 }),
  finop: fc.boolean(),
  share: fc.double({ min: 0, max: 1, noNaN: true }),
  reference: fc.option(fc.integer({ min: -500, max: 500 }), { nil: null }),
  counter: fc.boolean(),
  settler: fc.constantFrom<StaffName>('admin1', 'operatorA', 'operatorB'),
  // When the order settled: now (the live move), or a moment of the window, on a quarter, a millisecond either side
  // of one, or inside one.
  past: fc.option(
    fc.record({ quarter: fc.nat({ max: QUARTERS - 1 }), nudge: fc.constantFrom(0, -1, 1, 7 * 60_000 + 123) }),
    { nil: null },
  ),
});

const REPORT = fc.record({
  tz: fc.constantFrom(...ZONES),
  fromDay: fc.nat({ max: 21 }),
  days: fc.integer({ min: 1, max: 6 }),
});

type OrderSpec = typeof ORDER extends fc.Arbitrary<infer T> ? T : never;

async function placeAndSettle(o: OrderSpec) {
  const k = KINDS[o.kind];
  const amount = new Dec(k.min).plus(new Dec(k.max - k.min).times(o.share)).toDecimalPlaces(k.decimals, Dec.ROUND_DOWN);
  const body: Record<string, unknown> = {
    cashbox: { id: world.exchanges[k.at] },
    currency1: { id: world.currencies[k.c1] },
    currency2: { id: world.currencies[k.c2] },
    operationType: o.finop ? 'finop' : 'offer',
  };
  // A financial operation: both amounts given, the payout twice the payment in currency2's precision (at least 1).
  if (o.finop) {
    const payout = Dec.max(amount.times(2).toDecimalPlaces(DECIMALS[k.c2], Dec.ROUND_DOWN), 1);
    Object.assign(body, { clientAmount: amount.toNumber(), exchangeAmount: payout.toNumber() });
  } else body[k.field] = amount.toNumber();
  const { id } = await placeOrder(server, world.keys.branch, body);
  // What market rates would have written at pricing: a reference within ±5 % of the rate (as the offer's units).
  if (o.reference !== null) {
    const reference = new Dec(k.rate).times(new Dec(1).plus(new Dec(o.reference).div(10000))).toSignificantDigits(12);
    await server.db.updateTable('orders').set({ reference_rate: reference.toFixed() }).where('id', '=', id).execute();
  }
  if (o.counter)
    await server.db
      .updateTable('orders')
      .set({ source: 'counter', created_by_staff_id: world.staff.operatorA.id })
      .where('id', '=', id)
      .execute();
  const settler =
    o.settler === 'operatorB' && k.at === 'A'
      ? 'admin1'
      : o.settler === 'operatorA' && k.at === 'B'
        ? 'operatorB'
        : o.settler;
  for (const status of ['CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'SUCCESS']) {
    const res = await call(server, 'POST', `/admin/orders/${id}/status`, { token: tokens[settler], body: { status } });
    expect(res.status, res.text).toBe(200);
  }
  return id;
}

interface Figures {
  received: Dec;
  paidOut: Dec;
  orders: number;
  income: Dec;
}

/**
 * The report computed from the orders themselves: every SUCCESS order of branch 1 with its last SUCCESS history row,
 * each instant put on its local date with Intl directly, the income worked out with decimal.js.
 */
async function independent(tz: string, from: string, to: string, groupBy: string): Promise<Map<string, Figures>> {
  const { rows } = await sql<any>`
    select o.id, o.cashbox_id, o.currency1_id, o.currency2_id, o.client_amount, o.exchange_amount, o.is_reverse,
      o.reference_rate, o.created_by_staff_id, h.actor_type, h.staff_user_id, h.created_at, c2.decimals as d2
    from orders o join currencies c2 on c2.id = o.currency2_id
    join lateral (select * from order_status_history where order_id = o.id and to_status = 'SUCCESS' order by id desc limit 1) h on true
    where o.status = 'SUCCESS' and o.branch_id = ${world.branches.b1}`.execute(server.db);
  const DOWN = Dec.clone({ rounding: Dec.ROUND_DOWN });
  const out = new Map<string, Figures>();
  for (const r of rows) {
    const date = new Date(r.created_at).toLocaleDateString('en-CA', { timeZone: tz });
    if (date < from || date > to) continue;
    const staff = r.created_by_staff_id ?? (r.actor_type === 'staff' ? r.staff_user_id : null);
    const group =
      groupBy === 'day' ? date : groupBy === 'exchange' ? r.cashbox_id : groupBy === 'staff' ? (staff ?? 'none') : '';
    let income = new Dec(0);
    if (r.reference_rate !== null) {
      const client = new DOWN(r.client_amount);
      const atReference = r.is_reverse ? client.div(r.reference_rate) : client.times(r.reference_rate);
      income = new Dec(atReference.toDecimalPlaces(r.d2, Dec.ROUND_DOWN)).minus(r.exchange_amount);
    }
    const add = (currency: number, f: Omit<Figures, 'orders'>) => {
      const key = `${group}|${currency}`;
      const was = out.get(key) ?? { received: new Dec(0), paidOut: new Dec(0), orders: 0, income: new Dec(0) };
      out.set(key, {
        received: was.received.plus(f.received),
        paidOut: was.paidOut.plus(f.paidOut),
        orders: was.orders + 1,
        income: was.income.plus(f.income),
      });
    };
    add(r.currency1_id, { received: new Dec(r.client_amount), paidOut: new Dec(0), income: new Dec(0) });
    add(r.currency2_id, { received: new Dec(0), paidOut: new Dec(r.exchange_amount), income });
  }
  return out;
}

const groupOf = (row: Record<string, any>, groupBy: string) =>
  groupBy === 'day'
    ? row.period
    : groupBy === 'exchange'
      ? row.exchangeId
      : groupBy === 'staff'
        ? (row.staff?.id ?? 'none')
        : '';

async function compare(tz: string, from: string, to: string): Promise<void> {
  for (const groupBy of ['day', 'exchange', 'currency', 'staff']) {
    const query = { from, to, groupBy, tz };
    const report = await turnover(server, tokens.admin1, query);
    const expected = await independent(tz, from, to, groupBy);
    const got = new Map(
      report.data.map((r) => [
        `${groupOf(r, groupBy)}|${r.currency.id}`,
        { received: r.received, paidOut: r.paidOut, orders: Number(r.orders), income: r.income },
      ]),
    );
    const want = new Map(
      [...expected].map(([key, f]) => [
        key,
        { received: f.received.toFixed(), paidOut: f.paidOut.toFixed(), orders: f.orders, income: f.income.toFixed() },
      ]),
    );
    expect(Object.fromEntries(got), `${groupBy} ${tz} ${from}…${to}`).toEqual(Object.fromEntries(want));

    const csv = await call(server, 'GET', '/admin/reports/turnover', {
      token: tokens.admin1,
      query: { ...query, format: 'csv' },
    });
    const lines = csv.text.split('\r\n').slice(1, -1);
    expect(lines.length).toBe(report.data.length);
    lines.forEach((line, i) => {
      const r = report.data[i];
      const cells = line.split(',');
      expect(cells.slice(-6)).toEqual([r.currency.id, r.currency.ticker, r.received, r.paidOut, r.orders, r.income]);
      if (groupBy === 'day') expect(cells[0]).toBe(r.period);
      if (groupBy === 'exchange') expect(cells[0]).toBe(r.exchangeId);
    });
  }
}

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('the turnover report', () => {
  it('equals the sums of the settled orders themselves, for every grouping, zone and range, in JSON and CSV', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ORDER, { minLength: 1, maxLength: 6 }), REPORT, async (orders, report) => {
        const placed = [];
        for (const o of orders) placed.push({ id: await placeAndSettle(o), past: o.past });
        // The live moves, today, in the zone drawn: the days around today cover every zone's today.
        const now = Date.now();
        await compare(report.tz, dateOf(now - 86_400_000), dateOf(now + 86_400_000));

        // The orders drawn with a past moment settled then: their history says so, and the aggregates are rebuilt
        // from the history by the migration's backfill.
        for (const { id, past } of placed) {
          if (!past) continue;
          const at = new Date(WINDOW_START + past.quarter * QUARTER + past.nudge);
          await sql`update order_status_history set created_at = ${at.toISOString()}::timestamptz
            where order_id = ${id}::int and to_status = 'SUCCESS'`.execute(server.db);
        }
        await turnoverMigration.down(server.db as unknown as Kysely<unknown>);
        await turnoverMigration.up(server.db as unknown as Kysely<unknown>);
        const from = WINDOW_START + report.fromDay * 86_400_000;
        await compare(report.tz, dateOf(from), dateOf(from + (report.days - 1) * 86_400_000));
      }),
      // The orders carry over from run to run, as the database does; a failed run is not shrunk against a changed state.
      { numRuns: 15, endOnFailure: true },
    );
  }, 300_000);
});
