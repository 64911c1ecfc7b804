import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactJsonNumber } from '../../src/http/exact-numbers.js';
import { startWorld } from '../helpers/fixture.js';
import { call, exactJson, type TestServer } from '../helpers/server.js';
import type { StaffName } from '../helpers/staff.js';
import type { World } from '../helpers/world.js';

// Amounts and rates are JSON numbers written with every digit the database holds, past what a double keeps.

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
});
afterAll(() => server?.close());

describe('exact JSON numbers', () => {
  it('writes a decimal string as its digits, without trailing fraction zeros, and leaves anything else alone', () => {
    expect(exactJsonNumber('0.123456789012345678')).toBe('0.123456789012345678');
    expect(exactJsonNumber('6659329434.49600516')).toBe('6659329434.49600516');
    expect(exactJsonNumber('100.000000000000000000')).toBe('100');
    expect(exactJsonNumber('10.500000000000000000')).toBe('10.5');
    expect(exactJsonNumber('-0.000000000000000000')).toBe('0');
    expect(exactJsonNumber('-12.340')).toBe('-12.34');
    expect(exactJsonNumber('0')).toBe('0');
    expect(exactJsonNumber('120')).toBe('120');
    for (const text of ['', '1e5', '01', '.5', '5.', '1,5', 'NaN', 'Infinity', ' 1', '1 ', '+1', '0x10', '1.2.3'])
      expect(exactJsonNumber(text)).toBeUndefined();
  });

  it('keeps every digit of a rate and an amount a double cannot hold, on the admin and the partner side', async () => {
    const created = await call(server, 'POST', '/admin/offers', {
      token: tokens.admin1,
      body: {
        exchangeId: world.exchanges.B,
        currency1Id: world.currencies.USDT,
        currency2Id: world.currencies.EUR,
        rate: '0.123456789012345678',
        minAmount: '10',
        maxAmount: '12345678901234567.25',
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(exactJson(created.text)).toMatchObject({
      rate: '0.123456789012345678',
      minAmount: '10',
      maxAmount: '12345678901234567.25',
    });
    // A reader that parses doubles gets the nearest double, as it always did.
    expect(created.body.rate).toBe(Number('0.123456789012345678'));

    const partner = await call(server, 'GET', '/partner/offers', {
      key: world.keys.branch,
      query: { filter: JSON.stringify({ exchangeId: world.exchanges.B }), limit: 100 },
    });
    expect(partner.status, partner.text).toBe(200);
    const offer = exactJson(partner.text).data.find((o: { id: string }) => Number(o.id) === created.body.id);
    expect(offer).toMatchObject({ rate: '0.123456789012345678', maxAmount: '12345678901234567.25' });

    // The estimate's destination amount: 1000 USDT at the rate, rounded down to EUR's cents.
    const estimate = await call(server, 'POST', '/partner/public/estimate', {
      key: world.keys.public,
      body: {
        exchangeId: world.exchanges.B,
        sourceCurrencyId: world.currencies.USDT,
        destCurrencyId: world.currencies.EUR,
        amount: 1000,
        direction: 'source',
      },
    });
    expect(estimate.status, estimate.text).toBe(200);
    expect(exactJson(estimate.text)).toMatchObject({ rate: '0.123456789012345678', destAmount: '123.45' });
  });
});
