import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { startExpiry, type OrderExpiry } from '../../../src/features/orders/expiry.js';
import { orderBody } from '../orders/support.js';
import { eventually } from '../webhooks/support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

// The worker's expiry job runs throughout: an `expire` step puts an unpaid order's deadline in the past and waits for
// the job to cancel it, as it would an order nobody paid.
let expiry: OrderExpiry;
beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  expiry = startExpiry(server.ctx, { pollMs: 100 });
});
afterAll(async () => {
  await expiry?.stop();
  await server?.close();
});

/** Money in cents: every currency used here has 2 decimals, so the model counts exactly in integers. */
const cents = (x: number | string) => Math.round(Number(x) * 100);
const OPEN = new Set(['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT']);
const NEXT: Record<string, string> = {
  ORDERINIT: 'CLIENTPAYMENTWAIT',
  CLIENTPAYMENTWAIT: 'EXCHANGEPAYMENTWAIT',
  EXCHANGEPAYMENTWAIT: 'SUCCESS',
};

type Side = 'A' | 'B';
type Cur = 'USD' | 'EUR';
type Op =
  | { op: 'order'; at: Side; clientAmount: number }
  | { op: 'advance' | 'cancel' | 'expire'; pick: number }
  | { op: 'deposit' | 'withdrawal' | 'count'; at: Side; cur: Cur; amount: number }
  | { op: 'transfer'; from: Side; cur: Cur; amount: number };

const side = fc.constantFrom<Side>('A', 'B');
const cur = fc.constantFrom<Cur>('USD', 'EUR');
const amount = fc.integer({ min: 1, max: 8000 }).map((c) => c / 100);
const OPS: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      op: fc.constant('order' as const),
      at: side,
      clientAmount: fc.integer({ min: 10, max: 60 }),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ op: fc.constantFrom('advance' as const, 'cancel' as const), pick: fc.nat() }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('expire' as const), pick: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({
      op: fc.constantFrom('deposit' as const, 'withdrawal' as const, 'count' as const),
      at: side,
      cur,
      amount,
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ op: fc.constant('transfer' as const), from: side, cur, amount }), weight: 1 },
);

/** The model: each position's balance and held, in cents, and the open orders with their payouts. */
interface Model {
  positions: Map<string, { balance: number; held: number }>;
  orders: { id: number; status: string; at: Side; payout: number; paid: number }[];
}

const key = (at: Side, c: Cur) => `${at}:${c}`;

describe('cash ledger against a model', () => {
  it('any sequence (expiries included) keeps balance = sum of entries, held = open payouts, available ≥ 0, and refuses as the model does', async () => {
    const ex = (at: Side) => world.exchanges[at];
    const cy = (c: Cur) => world.currencies[c];
    // Both exchanges track USD and EUR from the start, so every order at them is held.
    const model: Model = { positions: new Map(), orders: [] };
    for (const at of ['A', 'B'] as const)
      for (const c of ['USD', 'EUR'] as const) {
        const res = await call(server, 'POST', `/admin/exchanges/${ex(at)}/cash/${cy(c)}/movements`, {
          token: tokens.admin1,
          body: { kind: 'deposit', amount: 100 },
        });
        expect(res.status, res.text).toBe(201);
        model.positions.set(key(at, c), { balance: 10000, held: 0 });
      }

    const step = async (op: Op) => {
      const m = model.positions;
      if (op.op === 'order') {
        const body = orderBody(world, { cashbox: { id: ex(op.at) }, clientAmount: op.clientAmount });
        const res = await call(server, 'POST', '/partner/orders', { key: world.keys.branch, body });
        const eur = m.get(key(op.at, 'EUR'))!;
        const rate = op.at === 'A' ? 0.9215 : 0.93;
        const payout = Math.floor(op.clientAmount * rate * 100 + 1e-9);
        if (eur.balance - eur.held >= payout) {
          expect(res.status, res.text).toBe(201);
          expect(cents(res.body.exchangeAmount)).toBe(payout);
          eur.held += payout;
          model.orders.push({ id: res.body.id, status: 'ORDERINIT', at: op.at, payout, paid: op.clientAmount * 100 });
        } else {
          expect(res.status, res.text).toBe(400);
          expect(res.body.errors).toEqual({ exchangeAmount: 'insufficientReserve' });
        }
      } else if (op.op === 'advance' || op.op === 'cancel') {
        const open = model.orders.filter((o) => OPEN.has(o.status));
        if (open.length === 0) return;
        const o = open[op.pick % open.length]!;
        const to = op.op === 'cancel' ? 'CANCEL' : NEXT[o.status]!;
        const res = await call(server, 'POST', `/admin/orders/${o.id}/status`, {
          token: tokens.admin1,
          body: { status: to },
        });
        expect(res.status, res.text).toBe(200);
        o.status = to;
        const eur = m.get(key(o.at, 'EUR'))!;
        if (to === 'CANCEL') eur.held -= o.payout;
        if (to === 'SUCCESS') {
          eur.held -= o.payout;
          eur.balance -= o.payout;
          m.get(key(o.at, 'USD'))!.balance += o.paid;
        }
      } else if (op.op === 'expire') {
        const unpaid = model.orders.filter((o) => o.status === 'ORDERINIT' || o.status === 'CLIENTPAYMENTWAIT');
        if (unpaid.length === 0) return;
        const o = unpaid[op.pick % unpaid.length]!;
        await sql`update orders set expires_at = now() - interval '1 second' where id = ${o.id}`.execute(server.db);
        await eventually(
          async () =>
            (await call(server, 'GET', `/partner/orders/${o.id}`, { key: world.keys.branch })).body.status === 'CANCEL',
          10_000,
          50,
        );
        o.status = 'CANCEL';
        m.get(key(o.at, 'EUR'))!.held -= o.payout;
      } else if (op.op === 'transfer') {
        const to: Side = op.from === 'A' ? 'B' : 'A';
        const res = await call(server, 'POST', '/admin/cash/transfers', {
          token: tokens.admin1,
          body: { fromExchangeId: ex(op.from), toExchangeId: ex(to), currencyId: cy(op.cur), amount: op.amount },
        });
        const from = m.get(key(op.from, op.cur))!;
        const c = cents(op.amount);
        if (from.balance - from.held >= c) {
          expect(res.status, res.text).toBe(201);
          from.balance -= c;
          m.get(key(to, op.cur))!.balance += c;
        } else {
          expect(res.status, res.text).toBe(400);
          expect(res.body.errors).toEqual({ amount: 'belowHeld' });
        }
      } else if (op.op === 'deposit' || op.op === 'withdrawal' || op.op === 'count') {
        const res = await call(server, 'POST', `/admin/exchanges/${ex(op.at)}/cash/${cy(op.cur)}/movements`, {
          token: tokens.admin1,
          body: { kind: op.op, amount: op.amount },
        });
        const p = m.get(key(op.at, op.cur))!;
        const c = cents(op.amount);
        const after = op.op === 'deposit' ? p.balance + c : op.op === 'withdrawal' ? p.balance - c : c;
        if (after >= p.held) {
          expect(res.status, res.text).toBe(201);
          expect(cents(res.body.movement.amount)).toBe(after - p.balance);
          p.balance = after;
        } else {
          expect(res.status, res.text).toBe(400);
          expect(res.body.errors).toEqual({ amount: 'belowHeld' });
        }
      }
    };

    const check = async () => {
      const { rows } = await sql<{
        exchange_id: number;
        currency_id: number;
        balance: string;
        held: string;
        entries: string;
        open: string;
      }>`
        select p.exchange_id, p.currency_id, p.balance, p.held,
          (select coalesce(sum(m.amount), 0) from cash_movements m where m.exchange_id = p.exchange_id and m.currency_id = p.currency_id) as entries,
          (select coalesce(sum(o.exchange_amount), 0) from orders o where o.cashbox_id = p.exchange_id and o.currency2_id = p.currency_id
            and o.status in ('ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT')) as open
        from cash_positions p`.execute(server.db);
      for (const r of rows) {
        expect(r.balance, 'balance = sum of its entries').toBe(r.entries);
        expect(cents(r.held), 'held = payouts of open orders').toBe(cents(r.open));
        expect(Number(r.balance) - Number(r.held)).toBeGreaterThanOrEqual(0);
        const at = r.exchange_id === world.exchanges.A ? 'A' : 'B';
        const c = r.currency_id === world.currencies.USD ? 'USD' : 'EUR';
        expect({ balance: cents(r.balance), held: cents(r.held) }).toEqual(model.positions.get(key(at, c)));
      }
    };

    await fc.assert(
      fc.asyncProperty(fc.array(OPS, { minLength: 1, maxLength: 12 }), async (ops) => {
        for (const op of ops) await step(op);
        await check();
      }),
      // The model carries over from run to run, as the database does; a failed run is not shrunk against a changed state.
      { numRuns: 12, endOnFailure: true },
    );
  }, 120_000);
});
