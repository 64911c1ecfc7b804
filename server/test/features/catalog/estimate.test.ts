import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let w: World;

beforeAll(async () => ({ server, world: w } = await startWorld()));
afterAll(() => server?.close());

const estimate = (body: Record<string, unknown>, key = w.keys.public) =>
  call(server, 'POST', '/partner/public/estimate', { key, body });

describe('POST /partner/public/estimate — exact decimal pricing', () => {
  // Each case worked out by hand; the comment shows the exact product or quotient before rounding.
  const cases: [
    string,
    () => Record<string, unknown>,
    { sourceAmount: number; destAmount: number; rate: number; isReverse: boolean },
  ][] = [
    // 100.01 × 0.9215 = 92.159215 → down to 2 decimals
    [
      'forward, amount in source',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.USD,
        destCurrencyId: w.currencies.EUR,
        amount: 100.01,
        direction: 'source',
      }),
      { sourceAmount: 100.01, destAmount: 92.15, rate: 0.9215, isReverse: false },
    ],
    // 92.16 ÷ 0.9215 = 100.01085187… → up to 2 decimals
    [
      'forward, amount in dest',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.USD,
        destCurrencyId: w.currencies.EUR,
        amount: 92.16,
        direction: 'dest',
      }),
      { sourceAmount: 100.02, destAmount: 92.16, rate: 0.9215, isReverse: false },
    ],
    // reverse of USD→EUR: 50 ÷ 0.9215 = 54.25935973… → down
    [
      'reverse, amount in source (direction defaults to source)',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.EUR,
        destCurrencyId: w.currencies.USD,
        amount: 50,
      }),
      { sourceAmount: 50, destAmount: 54.25, rate: 0.9215, isReverse: true },
    ],
    // 54.26 × 0.9215 = 50.000590 → up
    [
      'reverse, amount in dest',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.EUR,
        destCurrencyId: w.currencies.USD,
        amount: 54.26,
        direction: 'dest',
      }),
      { sourceAmount: 50.01, destAmount: 54.26, rate: 0.9215, isReverse: true },
    ],
    // 0.00123457 × 64250.17 = 79.3213323769 → down
    [
      '8-decimal source currency',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.BTC,
        destCurrencyId: w.currencies.USD,
        amount: 0.00123457,
      }),
      { sourceAmount: 0.00123457, destAmount: 79.32, rate: 64250.17, isReverse: false },
    ],
    // 100 ÷ 64250.17 = 0.001556416115… → down to 8 decimals
    [
      '8-decimal dest currency, reverse',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.USD,
        destCurrencyId: w.currencies.BTC,
        amount: 100,
      }),
      { sourceAmount: 100, destAmount: 0.00155641, rate: 64250.17, isReverse: true },
    ],
    // 0.00155642 × 64250.17 = 100.0002495914 → up
    [
      '8-decimal dest amount given, reverse',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.USD,
        destCurrencyId: w.currencies.BTC,
        amount: 0.00155642,
        direction: 'dest',
      }),
      { sourceAmount: 100.01, destAmount: 0.00155642, rate: 64250.17, isReverse: true },
    ],
    // 1234.567891 × 0.0000155123456789 = 0.0191510438892625361999 → down to 8
    [
      'rate with many digits, forward',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.USDT,
        destCurrencyId: w.currencies.BTC,
        amount: 1234.567891,
      }),
      { sourceAmount: 1234.567891, destAmount: 0.01915104, rate: 0.0000155123456789, isReverse: false },
    ],
    // 0.01 ÷ 0.0000155123456789 = 644.6478312820… → up to 6
    [
      'rate with many digits, amount in dest',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.USDT,
        destCurrencyId: w.currencies.BTC,
        amount: 0.01,
        direction: 'dest',
      }),
      { sourceAmount: 644.647832, destAmount: 0.01, rate: 0.0000155123456789, isReverse: false },
    ],
    // reverse: 0.01 ÷ 0.0000155123456789 = 644.6478312820… → down to 6
    [
      'rate with many digits, reverse',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.BTC,
        destCurrencyId: w.currencies.USDT,
        amount: 0.01,
      }),
      { sourceAmount: 0.01, destAmount: 644.647831, rate: 0.0000155123456789, isReverse: true },
    ],
    // 10.55 × 161.3791 = 1702.549505 → down to 0 decimals
    [
      '0-decimal dest currency',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.EUR,
        destCurrencyId: w.currencies.JPY,
        amount: 10.55,
      }),
      { sourceAmount: 10.55, destAmount: 1702, rate: 161.3791, isReverse: false },
    ],
    // 1703 ÷ 161.3791 = 10.5527915… → up
    [
      '0-decimal amount in dest',
      () => ({
        exchangeId: w.exchanges.A,
        sourceCurrencyId: w.currencies.EUR,
        destCurrencyId: w.currencies.JPY,
        amount: 1703,
        direction: 'dest',
      }),
      { sourceAmount: 10.56, destAmount: 1703, rate: 161.3791, isReverse: false },
    ],
  ];

  it.each(cases)('%s', async (_name, body, expected) => {
    const res = await estimate(body());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(expected);
    expect(res.body.offerId).toBeTypeOf('number');
    expect(res.body.exchangeId).toBe(w.exchanges.A);
  });

  it('describes both currencies as PublicCurrency', async () => {
    const res = await estimate({
      exchangeId: w.exchanges.A,
      sourceCurrencyId: w.currencies.USD,
      destCurrencyId: w.currencies.EUR,
      amount: 100,
    });
    expect(res.body.sourceCurrency).toEqual({
      id: w.currencies.USD,
      name: 'US Dollar',
      ticker: 'USD',
      image: { id: '00000000-0000-4000-8000-000000000001', path: '/img/usd.svg' },
    });
    expect(res.body.destCurrency).toEqual({ id: w.currencies.EUR, name: 'Euro', ticker: 'EUR', image: null });
    expect(res.body.offerId).toBe(w.offers.aUsdEur);
  });

  it('works with every key type of the branch', async () => {
    for (const key of [
      w.keys.public,
      w.keys.branch,
      w.keys.operatorA,
      w.keys.operatorB,
      w.keys.admin1,
      w.keys.superadmin,
    ]) {
      const res = await estimate(
        {
          exchangeId: w.exchanges.A,
          sourceCurrencyId: w.currencies.USD,
          destCurrencyId: w.currencies.EUR,
          amount: 100,
        },
        key,
      );
      expect(res.status).toBe(200);
    }
  });
});

describe('POST /partner/public/estimate — refusals', () => {
  const base = () => ({
    exchangeId: w.exchanges.A,
    sourceCurrencyId: w.currencies.USD,
    destCurrencyId: w.currencies.EUR,
    amount: 100,
  });

  it('refuses an amount below the offer minimum, naming the limit', async () => {
    const res = await estimate({ ...base(), amount: 9.99 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', errors: { amount: 'belowMinimum' } });
    expect(res.body.message).toContain('10 USD');
  });

  it('checks the limit on the currency1 side of a reverse offer', async () => {
    // EUR→USD via USD→EUR: 5 EUR ÷ 0.9215 = 5.42 USD, below the 10 USD minimum.
    const res = await estimate({
      ...base(),
      sourceCurrencyId: w.currencies.EUR,
      destCurrencyId: w.currencies.USD,
      amount: 5,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ amount: 'belowMinimum' });
  });

  it('refuses an amount above the maximum', async () => {
    const res = await estimate({ ...base(), amount: 10000.01 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ amount: 'aboveMaximum' });
    expect(res.body.message).toContain('10000 USD');
  });

  it('refuses more decimals than the currency has', async () => {
    const res = await estimate({ ...base(), amount: 100.001 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ amount: 'tooManyDecimals' });
  });

  it('answers 404 offer notFound when no active offer joins the pair', async () => {
    const res = await estimate({ ...base(), sourceCurrencyId: w.currencies.JPY, destCurrencyId: w.currencies.USD });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      errors: { offer: 'notFound' },
      message: 'offer not found: the exchange has no active offer between these currencies, in either direction',
    });
  });

  it("answers 404 for an inactive exchange, an unknown one and another branch's", async () => {
    for (const exchangeId of [w.exchanges.X, 999999, w.exchanges.C]) {
      const res = await estimate({ ...base(), exchangeId });
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual({ exchange: 'notFound' });
      // The same words for each: which exchanges exist elsewhere is not the key's to learn.
      expect(res.body.message).toBe("exchange not found: the key's branch has no active exchange with this id");
    }
  });

  it('validates the body: missing fields, wrong types, bad direction, non-positive amount, same currency', async () => {
    const missing = await estimate({ exchangeId: w.exchanges.A });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toMatchObject({
      sourceCurrencyId: 'required',
      destCurrencyId: 'required',
      amount: 'required',
    });
    expect(missing.body.message).toEqual(expect.arrayContaining(['amount is required']));

    expect((await estimate({ ...base(), direction: 'sideways' })).body.errors).toEqual({ direction: 'invalidValue' });
    expect((await estimate({ ...base(), amount: 0 })).body.errors).toEqual({ amount: 'tooSmall' });
    expect((await estimate({ ...base(), amount: -5 })).status).toBe(400);
    expect((await estimate({ ...base(), exchangeId: 'abc' })).body.errors).toEqual({ exchangeId: 'invalidType' });
    expect((await estimate({ ...base(), destCurrencyId: w.currencies.USD })).body.errors).toEqual({
      destCurrencyId: 'sameAsSource',
    });
  });
});
