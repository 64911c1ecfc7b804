import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeQuote, diagnose } from '../../../src/features/quotes/repository.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, startTestServer, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { orderBody } from '../orders/support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
}, 180_000);
afterAll(() => server?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const usdEur = (w: World, amount: number | string = 100) => ({
  exchangeId: w.exchanges.A,
  sourceCurrencyId: w.currencies.USD,
  destCurrencyId: w.currencies.EUR,
  amount,
});

async function takeQuote(s: { url: string }, key: string, body: Record<string, unknown>) {
  const res = await call(s, 'POST', '/partner/public/quotes', { key, body });
  if (res.status !== 201) throw new Error(`quote failed: ${res.status} ${res.text}`);
  return res.body as {
    quoteId: string;
    expiresAt: string;
    sourceAmount: number;
    destAmount: number;
    rate: number;
    offerId: number;
  };
}
const orderOn = (s: { url: string }, key: string, quoteId: string, overrides: Record<string, unknown> = {}) =>
  call(s, 'POST', '/partner/orders', {
    key,
    body: { ...orderBody(world, { clientAmount: undefined }), quoteId, ...overrides },
  });
const setOffer = (id: number, change: Record<string, string | boolean>) =>
  call(server, 'PATCH', `/admin/offers/${id}`, { token: tokens.admin1, body: change });

describe('POST /partner/public/quotes', () => {
  it("returns the estimate's figures with a quoteId and an expiry, to a public key too", async () => {
    const estimate = await call(server, 'POST', '/partner/public/estimate', {
      key: world.keys.public,
      body: usdEur(world, 123.45),
    });
    const res = await call(server, 'POST', '/partner/public/quotes', {
      key: world.keys.public,
      body: usdEur(world, 123.45),
    });
    expect(res.status).toBe(201);
    const { quoteId, expiresAt, ...figures } = res.body;
    expect(figures).toEqual(estimate.body);
    expect(quoteId).toMatch(UUID);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now() - 1000);
  });

  it('refuses what the estimate refuses, with the same errors', async () => {
    for (const body of [
      usdEur(world, 5),
      { ...usdEur(world), exchangeId: world.exchanges.C },
      { ...usdEur(world), destCurrencyId: world.currencies.USD },
    ]) {
      const estimate = await call(server, 'POST', '/partner/public/estimate', { key: world.keys.branch, body });
      const quote = await call(server, 'POST', '/partner/public/quotes', { key: world.keys.branch, body });
      expect(quote.status).toBe(estimate.status);
      expect(quote.body).toEqual(estimate.body);
    }
  });
});

describe('POST /partner/orders with quoteId', () => {
  it('prices the order at the quoted rate to the last decimal after the rate changed', async () => {
    const q = await takeQuote(server, world.keys.public, {
      exchangeId: world.exchanges.A,
      sourceCurrencyId: world.currencies.USDT,
      destCurrencyId: world.currencies.BTC,
      amount: 1234.567891,
    });
    expect((await setOffer(world.offers.aUsdtBtc, { rate: '0.0000199' })).status).toBe(200);
    const fresh = await call(server, 'POST', '/partner/public/estimate', {
      key: world.keys.branch,
      body: {
        exchangeId: world.exchanges.A,
        sourceCurrencyId: world.currencies.USDT,
        destCurrencyId: world.currencies.BTC,
        amount: 1234.567891,
      },
    });
    const res = await orderOn(server, world.keys.branch, q.quoteId, {
      currency1: { id: world.currencies.USDT },
      currency2: { id: world.currencies.BTC },
    });
    expect(res.status).toBe(201);
    // Compared as the exact JSON text: a float comparison could hide a difference in the last decimal.
    const figure = (text: string, field: string) => new RegExp(`"${field}":([0-9.e+-]+)`).exec(text)?.[1];
    const quoteText = JSON.stringify(q);
    expect(figure(res.text, 'clientAmount')).toBe(figure(quoteText, 'sourceAmount'));
    expect(figure(res.text, 'exchangeAmount')).toBe(figure(quoteText, 'destAmount'));
    expect(figure(res.text, 'rate')).toBe('0.0000155123456789');
    expect(figure(res.text, 'exchangeAmount')).toBe('0.01915104');
    expect(fresh.body.destAmount).not.toBe(q.destAmount);
    expect(res.body.offer).toEqual({ id: world.offers.aUsdtBtc });
  });

  it('uses a quote once (422 "used")', async () => {
    const q = await takeQuote(server, world.keys.branch, usdEur(world));
    expect((await orderOn(server, world.keys.branch, q.quoteId)).status).toBe(201);
    const again = await orderOn(server, world.keys.branch, q.quoteId);
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ quoteId: 'used' });
    expect(again.body.message).toMatch(/already been used/);
  });

  it('refuses a quote for another exchange or pair (422 "mismatch") and keeps it usable', async () => {
    const q = await takeQuote(server, world.keys.branch, usdEur(world));
    const other = await orderOn(server, world.keys.branch, q.quoteId, { cashbox: { id: world.exchanges.B } });
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual({ quoteId: 'mismatch' });
    const swapped = await orderOn(server, world.keys.branch, q.quoteId, {
      currency1: { id: world.currencies.EUR },
      currency2: { id: world.currencies.USD },
    });
    expect(swapped.body.errors).toEqual({ quoteId: 'mismatch' });
    expect((await orderOn(server, world.keys.branch, q.quoteId)).status).toBe(201);
  });

  it('refuses a foreign quote: another branch\'s, or at an exchange outside the key\'s scope (422 "foreign")', async () => {
    const theirs = await takeQuote(server, world.keys.otherPublic, { ...usdEur(world), exchangeId: world.exchanges.C });
    // The order names our own exchange: the quote, not the cashbox, is what is out of reach.
    const res = await orderOn(server, world.keys.branch, theirs.quoteId);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ quoteId: 'foreign' });
    const atA = await takeQuote(server, world.keys.public, usdEur(world));
    const operatorB = await orderOn(server, world.keys.operatorB, atA.quoteId, { cashbox: { id: world.exchanges.B } });
    expect(operatorB.status).toBe(422);
    expect(operatorB.body.errors).toEqual({ quoteId: 'foreign' });
    // The other branch cannot use ours either.
    const ours = await orderOn(server, world.keys.otherBranch, atA.quoteId, { cashbox: { id: world.exchanges.C } });
    expect(ours.body.errors).toEqual({ quoteId: 'foreign' });
  });

  it("says so when the offer's maxAmount no longer covers the quote", async () => {
    const q = await takeQuote(server, world.keys.branch, {
      exchangeId: world.exchanges.B,
      sourceCurrencyId: world.currencies.USD,
      destCurrencyId: world.currencies.EUR,
      amount: 400,
    });
    expect((await setOffer(world.offers.bUsdEur, { maxAmount: '300' })).status).toBe(200);
    const res = await orderOn(server, world.keys.branch, q.quoteId, { cashbox: { id: world.exchanges.B } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ quoteId: 'aboveMaximum' });
    expect(res.body.message).toBe(
      "the offer's maxAmount is now 300, which no longer covers the quoted 400; take a new quote",
    );
    await setOffer(world.offers.bUsdEur, { maxAmount: '500' });
  });

  it('refuses a quote whose offer was replaced by the reverse one, whose limit is in the other currency', async () => {
    const q = await takeQuote(server, world.keys.branch, {
      exchangeId: world.exchanges.B,
      sourceCurrencyId: world.currencies.USD,
      destCurrencyId: world.currencies.EUR,
      amount: 400,
    });
    expect(q.offerId).toBe(world.offers.bUsdEur);
    expect((await setOffer(world.offers.bUsdEur, { isActive: false })).status).toBe(200);
    expect((await setOffer(world.offers.bEurUsdInactive, { isActive: true, maxAmount: '1000' })).status).toBe(200);
    try {
      const res = await orderOn(server, world.keys.branch, q.quoteId, { cashbox: { id: world.exchanges.B } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ quoteId: 'offerInactive' });
    } finally {
      await setOffer(world.offers.bEurUsdInactive, { isActive: false, maxAmount: '500' });
      await setOffer(world.offers.bUsdEur, { isActive: true });
    }
  });

  it('refuses an unknown quote, a quote with an amount, and a quote on a finop order', async () => {
    const unknown = await orderOn(server, world.keys.branch, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ quoteId: 'notFound' });
    const q = await takeQuote(server, world.keys.branch, usdEur(world));
    expect((await orderOn(server, world.keys.branch, q.quoteId, { clientAmount: 100 })).status).toBe(400);
    expect((await orderOn(server, world.keys.branch, q.quoteId, { operationType: 'finop' })).status).toBe(400);
    expect((await orderOn(server, world.keys.branch, 'not-a-uuid')).status).toBe(400);
  });

  it("refuses a quote that expires while the order's transaction runs, as it may wait for the quote's row", async () => {
    const q = await takeQuote(server, world.keys.branch, usdEur(world));
    await sql`update quotes set expires_at = now() + interval '300 milliseconds' where id = ${q.quoteId}::uuid`.execute(
      server.db,
    );
    const scope = { branchId: world.branches.b1, exchangeIds: null };
    await server.db.transaction().execute(async (tx) => {
      await sql`select 1`.execute(tx);
      await new Promise((r) => setTimeout(r, 600));
      expect(await consumeQuote(tx, scope, q.quoteId)).toBeUndefined();
      expect(await diagnose(tx, scope, q.quoteId)).toMatchObject({ used_at: null, expired: true });
    });
  });

  it('refuses a quote taken longer ago than QUOTE_TTL_SECONDS (422 "expired")', async () => {
    const short = await startTestServer({ database: server.database, env: { QUOTE_TTL_SECONDS: '1' } });
    try {
      const q = await takeQuote(short, world.keys.public, usdEur(world));
      // Wait until the quote's own expiry has passed, as the server states it.
      while (Date.now() <= Date.parse(q.expiresAt) + 50) await new Promise((r) => setTimeout(r, 100));
      const res = await orderOn(short, world.keys.branch, q.quoteId);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ quoteId: 'expired' });
    } finally {
      await short.close();
    }
  });
});
